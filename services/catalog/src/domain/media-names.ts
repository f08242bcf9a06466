import slugify from 'slugify';
import { unsafeTextProblem } from '@app/contracts';

const MAX_FILENAME = 255;

/**
 * Why the client's filename is refused (a 400 naming `filename`), or null. These characters are refused,
 * never stripped: `a.png\0.html` silently stored as `a.png.html` is a different name than either side
 * of the NUL meant. The multipart parser decodes the name as UTF-8 with replacement characters, so a
 * U+FFFD is the mark of bytes that were not UTF-8.
 */
export function filenameProblem(raw: string): string | null {
  const unsafe = unsafeTextProblem(raw, 'name');
  if (unsafe !== undefined) return `filename ${unsafe}`;
  return raw.includes('\uFFFD') ? 'filename must be valid UTF-8' : null;
}

/**
 * The uploaded file's name as the client gave it (already free of what filenameProblem refuses), reduced
 * to a base name without the other control characters (browsers and some clients send full paths); a
 * fallback when nothing usable is left.
 */
export function cleanFilename(raw: string | undefined, ext: string): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (cleaned.length === 0 || cleaned === '.' || cleaned === '..') return `image.${ext}`;
  return cleaned.slice(0, MAX_FILENAME);
}

/**
 * The file-name segment of the public URL: the slug of the name without its extension, plus the
 * extension of the type the bytes really are (so `photo.PNG` holding a JPEG is served as `photo.jpg`).
 */
export function publicFileName(filename: string, ext: string): string {
  const dot = filename.lastIndexOf('.');
  const stem = dot > 0 ? filename.slice(0, dot) : filename;
  const slug = slugify(stem, { lower: true, strict: true, trim: true }).slice(0, 100).replace(/-+$/, '');
  return `${slug || 'image'}.${ext}`;
}

/** The public address of a media file's bytes (served by media-content.routes.ts, no key needed). */
export function mediaUrl(baseUrl: string, media: { token: string; publicName: string }): string {
  return `${baseUrl}/media/${media.token}/${media.publicName}`;
}
