import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a media file's bytes. A media file's bytes never change (a new upload is a new
 * row and a new token), so its id and size name them for good; hashed, so the public URL's answer does
 * not hand out the record's API id.
 */
export function mediaEtag(media: { id: string; size: number }): string {
  return `"${createHash('sha256').update(`${media.id}:${media.size}`).digest('base64url')}"`;
}
