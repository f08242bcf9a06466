import { crc32, deflateSync } from 'node:zlib';
import { JPEG_1X1 } from '@app/service-testing';

/**
 * Images that declare sizes in each of the places a format can: what the pixel limit (MEDIA_MAX_PIXELS)
 * is tested with. Headers are real; pixel data is as little as the sniffer and image-size need.
 */

/** `value` as an unsigned integer of `size` bytes, little- or big-endian. */
function uint(size: number, endian: 'le' | 'be', value: number): Buffer {
  const bytes = Buffer.alloc(size);
  if (endian === 'le') bytes.writeUIntLE(value, 0, size);
  else bytes.writeUIntBE(value, 0, size);
  return bytes;
}
const u16le = (value: number) => uint(2, 'le', value);
const u16be = (value: number) => uint(2, 'be', value);
const u24le = (value: number) => uint(3, 'le', value);
const u32be = (value: number) => uint(4, 'be', value);
const u32le = (value: number) => uint(4, 'le', value);

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), body, u32be(crc32(body))]);
}

/**
 * A greyscale PNG of `width` × `height` whose IDAT inflates to the whole image (one byte per pixel plus
 * a filter byte per row): 10000 × 6990 is about 70 MB of pixels in a 70 KB file, a zlib bomb.
 */
export function pngZlibBomb(width: number, height: number): Buffer {
  const header = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 0, 0, 0, 0])]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc((width + 1) * height), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface GifFrame {
  left?: number;
  top?: number;
  width: number;
  height: number;
}

/** A GIF89a with a logical screen and frames (each a GCE, a comment and a 1-pixel LZW stream), in order. */
export function gif(screenWidth: number, screenHeight: number, frames: GifFrame[]): Buffer {
  const parts = [
    Buffer.from('GIF89a', 'latin1'),
    u16le(screenWidth),
    u16le(screenHeight),
    Buffer.from([0x80, 0, 0]), // global colour table of 2 entries
    Buffer.from([0xff, 0xff, 0xff, 0, 0, 0]),
  ];
  for (const frame of frames) {
    parts.push(
      Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]), // graphic control extension
      Buffer.from([0x21, 0xfe, 0x05]), // a comment, whose bytes could look like a descriptor
      Buffer.from([0x2c, 0xff, 0xff, 0xff, 0xff, 0x00]),
      Buffer.from([0x2c]),
      u16le(frame.left ?? 0),
      u16le(frame.top ?? 0),
      u16le(frame.width),
      u16le(frame.height),
      Buffer.from([0x00, 0x02, 0x02, 0x44, 0x01, 0x00]), // no local table, LZW code size 2, one sub-block
    );
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

function jpegFrameHeader(marker: number, width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from([0xff, marker, 0x00, 0x0b, 0x08]), u16be(height), u16be(width), Buffer.from([1, 1, 0x11, 0])]);
}

const SOF_IN_1X1 = JPEG_1X1.indexOf(Buffer.from([0xff, 0xc2]));

/** The 1×1 JPEG with its frame header (SOF2) replaced by `marker` declaring `width` × `height`. */
export function jpeg(width: number, height: number, marker = 0xc2): Buffer {
  return Buffer.concat([JPEG_1X1.subarray(0, SOF_IN_1X1), jpegFrameHeader(marker, width, height), JPEG_1X1.subarray(SOF_IN_1X1 + 13)]);
}

/** A 1×1 JPEG whose scan data (with a stuffed 0xFF and a restart marker) is followed by a second frame header. */
export function jpegWithLaterFrame(width: number, height: number): Buffer {
  return Buffer.concat([
    JPEG_1X1,
    Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]),
    jpegFrameHeader(0xc0, width, height),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A 1×1 JPEG followed, after its EOI, by a second image (as MPF and gain-map JPEGs carry them) of `width` × `height`. */
export function jpegWithAppendedImage(width: number, height: number): Buffer {
  return Buffer.concat([JPEG_1X1, Buffer.from([0xff, 0xd9, 0x00, 0x00]), jpeg(width, height, 0xc0), Buffer.from([0xff, 0xd9])]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const padding = data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from(type, 'latin1'), u32le(data.length), data, padding]);
}

function webp(chunks: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), u32le(body.length), body]);
}

/** A lossy WebP whose VP8 frame header declares `width` × `height` (14 bits each). */
export function webpLossy(width: number, height: number): Buffer {
  return webp([riffChunk('VP8 ', Buffer.concat([Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a]), u16le(width), u16le(height)]))]);
}

function vp8l(width: number, height: number): Buffer {
  return riffChunk('VP8L', Buffer.concat([Buffer.from([0x2f]), u32le(((width - 1) | ((height - 1) << 14)) >>> 0)]));
}

/** A lossless WebP whose VP8L header declares `width` × `height` (14 bits each). */
export function webpLossless(width: number, height: number): Buffer {
  return webp([vp8l(width, height)]);
}

/** An extended WebP: a VP8X canvas of `width` × `height` and, when given, ANMF frames each holding a VP8L bitstream. */
export function webpExtended(width: number, height: number, frames: { width: number; height: number }[] = []): Buffer {
  const flags = frames.length > 0 ? 0x02 : 0x00;
  const chunks = [riffChunk('VP8X', Buffer.concat([Buffer.from([flags, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]))];
  if (frames.length === 0) chunks.push(vp8l(Math.min(width, 16384), Math.min(height, 16384)));
  else chunks.push(riffChunk('ANIM', Buffer.alloc(6)));
  for (const frame of frames) {
    const header = Buffer.concat([u24le(0), u24le(0), u24le(frame.width - 1), u24le(frame.height - 1), u24le(100), Buffer.from([0])]);
    chunks.push(riffChunk('ANMF', Buffer.concat([header, vp8l(frame.width, frame.height)])));
  }
  return webp(chunks);
}

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([u32be(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

const FULL_BOX = Buffer.alloc(4); // version 0, no flags

/**
 * An AVIF whose item properties hold one `ispe` per size given (the first is the primary image's, as
 * image-size reads it); `metaLast` puts the media data before the meta box, as some writers do.
 */
export function avif(sizes: [number, number][], options: { metaLast?: boolean } = {}): Buffer {
  const ftyp = box('ftyp', Buffer.from('avif', 'latin1'), u32be(0), Buffer.from('avifmif1miaf', 'latin1'));
  const hdlr = box('hdlr', FULL_BOX, u32be(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), Buffer.from([0]));
  const ispes = sizes.map(([width, height]) => box('ispe', FULL_BOX, u32be(width), u32be(height)));
  const meta = box('meta', FULL_BOX, hdlr, box('iprp', box('ipco', ...ispes)));
  const mdat = box('mdat', Buffer.alloc(64, 0xff));
  return Buffer.concat(options.metaLast ? [ftyp, mdat, meta] : [ftyp, meta, mdat]);
}
