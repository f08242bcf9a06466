import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { AppError } from '@app/service-kit';
import { acceptedImageType, type AcceptedImageType } from '../domain/image-type.js';
import type { ByteWalker } from './declared-sizes/byte-walker.js';
import { declaredSizes } from './declared-sizes/index.js';
import { checkPixels, isDimension } from './pixel-limit.js';

/** Enough bytes for the sniffer to recognise every accepted format. */
const SNIFF_BYTES = 4100;
/** Kept to read width and height once the upload ended (a JPEG's size comes after its EXIF/ICC blocks). */
const HEAD_BYTES = 512 * 1024;

/**
 * The head in an ArrayBuffer of its own and of its exact length. `Buffer.concat` of a few bytes returns a
 * slice of Node's shared pool, and image-size reads through a DataView of the whole underlying buffer:
 * a truncated header would then be "completed" with other bytes of the process (and report them as size).
 * Here a read past the end throws, and the file is refused.
 */
function ownedCopy(chunks: Buffer[]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks));
}

export interface ImageFacts extends AcceptedImageType {
  size: number;
  width: number;
  height: number;
}

function notAnImage(): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', 'File must be a JPEG, PNG, WebP, GIF or AVIF image');
}

export function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `File is larger than the limit of ${maxBytes} bytes`);
}

export interface ProbeLimits {
  maxBytes: number;
  /** Most pixels (width × height) any size the file declares may have. */
  maxPixels: number;
}

/**
 * Sits between the upload and storage: holds back the first bytes until the sniffer has judged them
 * (so nothing but an accepted image reaches storage), then passes everything through unchanged while
 * counting it and walking its format's headers for every size it declares (canvas, frames, items).
 * Fails with 415 for another type and 413 as soon as the byte limit is passed or a declared size is
 * over the pixel limit: the GIF frame at the end of a 10 MB file is judged when it arrives. The
 * dimensions are read when the input ended but before this stream ends, so a file refused then never
 * becomes visible in storage either (storage commits only a stream that ended without error).
 * Memory use is bounded by HEAD_BYTES, whatever the upload's size.
 */
export class ImageProbe extends Transform {
  private type: AcceptedImageType | undefined;
  private sizes: ByteWalker | undefined;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private size = 0;
  private judged: ImageFacts | undefined;

  constructor(private readonly limits: ProbeLimits) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limits.maxBytes) return callback(tooLarge(this.limits.maxBytes));
    if (this.headBytes < HEAD_BYTES) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
    }
    if (this.sizes) {
      try {
        this.sizes.push(chunk);
      } catch (error) {
        return callback(error as Error);
      }
      return callback(null, chunk);
    }
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes < SNIFF_BYTES) return callback();
    this.release().then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    (this.type ? Promise.resolve() : this.release())
      .then(() => {
        this.judged = this.readFacts();
        callback();
      })
      .catch(callback);
  }

  /** What the bytes are; call after the stream ended without error. */
  facts(): ImageFacts {
    if (!this.judged) throw notAnImage();
    return this.judged;
  }

  private readFacts(): ImageFacts {
    if (!this.type) throw notAnImage();
    let dimensions: { width: number; height: number };
    try {
      dimensions = imageSize(ownedCopy(this.head));
    } catch {
      // The signature says image but its header cannot be read: not an image we can serve.
      throw notAnImage();
    }
    if (!isDimension(dimensions.width) || !isDimension(dimensions.height)) throw notAnImage();
    // The walk saw this header already; checked again in case image-size read a size the walk did not.
    checkPixels(this.limits.maxPixels, dimensions.width, dimensions.height);
    return { ...this.type, size: this.size, width: dimensions.width, height: dimensions.height };
  }

  private async release(): Promise<void> {
    const type = acceptedImageType(await fileTypeFromBuffer(Buffer.concat(this.held)));
    if (!type) throw notAnImage();
    this.type = type;
    const { maxPixels } = this.limits;
    this.sizes = declaredSizes(type.mime, (width, height) => checkPixels(maxPixels, width, height));
    for (const chunk of this.held) this.sizes.push(chunk);
    for (const chunk of this.held) this.push(chunk);
    this.held = [];
  }
}
