import type { MEDIA_MIME_TYPES } from '@app/contracts';

export type MediaMimeType = (typeof MEDIA_MIME_TYPES)[number];

export interface AcceptedImageType {
  mime: MediaMimeType;
  /** The extension used in storage keys and public file names. */
  ext: string;
}

/** Types detected from the bytes that the catalog accepts (an animated PNG is still a PNG). */
const ACCEPTED: Record<string, AcceptedImageType> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg' },
  'image/png': { mime: 'image/png', ext: 'png' },
  'image/apng': { mime: 'image/png', ext: 'png' },
  'image/webp': { mime: 'image/webp', ext: 'webp' },
  'image/gif': { mime: 'image/gif', ext: 'gif' },
  'image/avif': { mime: 'image/avif', ext: 'avif' },
};

/** The accepted type for what a sniffer detected, or null for anything else (or nothing). */
export function acceptedImageType(detected: { mime: string } | undefined): AcceptedImageType | null {
  if (!detected) return null;
  return Object.hasOwn(ACCEPTED, detected.mime) ? (ACCEPTED[detected.mime] ?? null) : null;
}
