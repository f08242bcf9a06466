import type { MediaMimeType } from '../../domain/image-type.js';
import { avifSizes } from './avif.js';
import { ByteWalker } from './byte-walker.js';
import type { Declare } from './declare.js';
import { gifSizes } from './gif.js';
import { jpegSizes } from './jpeg.js';
import { pngSizes } from './png.js';
import { webpSizes } from './webp.js';

const WALKS = {
  'image/png': pngSizes,
  'image/jpeg': jpegSizes,
  'image/gif': gifSizes,
  'image/webp': webpSizes,
  'image/avif': avifSizes,
} satisfies Record<MediaMimeType, (declare: Declare) => unknown>;

/**
 * Reads every size an image of `mime` declares from its bytes as they stream by (`push` each chunk),
 * handing each to `declare`, which may throw to stop the upload there.
 */
export function declaredSizes(mime: MediaMimeType, declare: Declare): ByteWalker {
  return new ByteWalker(WALKS[mime](declare));
}
