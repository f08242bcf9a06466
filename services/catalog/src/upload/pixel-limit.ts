import { AppError } from '@app/service-kit';

/** A width or height an image can really have (and the int4 columns can hold). */
export function isDimension(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= 2_147_483_647;
}

/**
 * Refuses a declared size over `maxPixels` with 413. A value that is no size an image can have (0, or
 * past 2^31 − 1) is left alone here: such a header is refused as not an image (415) once the upload
 * ended, and decoders refuse such a frame without allocating it.
 */
export function checkPixels(maxPixels: number, width: number, height: number): void {
  if (!isDimension(width) || !isDimension(height)) return;
  if (width * height > maxPixels) {
    throw new AppError('PAYLOAD_TOO_LARGE', `Image is ${width}×${height} pixels; at most ${maxPixels} pixels are accepted`);
  }
}
