import { fourcc, read, skip, type Walk } from './byte-walker.js';
import type { Declare } from './declare.js';

const VP8 = fourcc('VP8 ');
const VP8L = fourcc('VP8L');
const VP8X = fourcc('VP8X');
const ANMF = fourcc('ANMF');

const uint24 = (bytes: Buffer, offset: number): number => bytes.readUIntLE(offset, 3);

/**
 * WebP: the size in a VP8 (lossy) or VP8L (lossless) bitstream header, the VP8X canvas, and each ANMF
 * frame of an animation. An ANMF chunk holds the frame's own chunks (whose bitstreams declare a size too),
 * so the walk enters it instead of skipping it. Chunks are walked within the RIFF size only.
 */
export function* webpSizes(declare: Declare): Walk {
  const riff = yield read(12); // RIFF, size, WEBP
  const end = 8 + riff.readUInt32LE(4);
  let offset = 12;
  while (offset + 8 <= end) {
    const header = yield read(8);
    const type = header.readUInt32BE(0);
    const size = header.readUInt32LE(4);
    const padded = size + (size % 2);
    offset += 8;
    let consumed = 0;
    if (type === VP8 && size >= 10) {
      const frame = yield read(10); // frame tag (3), start code (3), width and height (14 bits each)
      declare(frame.readUInt16LE(6) & 0x3fff, frame.readUInt16LE(8) & 0x3fff);
      consumed = 10;
    } else if (type === VP8L && size >= 5) {
      const bits = (yield read(5)).readUInt32LE(1); // signature 0x2f, then 14 bits width − 1, 14 bits height − 1
      declare((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
      consumed = 5;
    } else if (type === VP8X && size >= 10) {
      const canvas = yield read(10); // flags (4), canvas width − 1 and height − 1 (24 bits each)
      declare(uint24(canvas, 4) + 1, uint24(canvas, 7) + 1);
      consumed = 10;
    } else if (type === ANMF && size >= 16) {
      const frame = yield read(16); // x/2, y/2, width − 1, height − 1, duration (24 bits each), flags
      declare(uint24(frame, 0) * 2 + uint24(frame, 6) + 1, uint24(frame, 3) * 2 + uint24(frame, 9) + 1);
      offset += 16;
      continue; // the frame's chunks follow
    }
    yield skip(padded - consumed);
    offset += padded;
  }
}
