import type { MediaFileRecord } from '@app/contracts';
import type { MediaMimeType } from './image-type.js';
import { mediaUrl } from './media-names.js';

/** The fields of a stored media file that its record shows (the token and public name only through its URL). */
export interface MediaRecordSource {
  id: string;
  token: string;
  publicName: string;
  filename: string;
  mimeType: string;
  size: number;
  width: number;
  height: number;
  altText: string | null;
  createdAt: Date;
}

/** A media file as the API shows it and as its change events carry it: its public URL instead of its storage key and token. */
export function mediaRecord(row: MediaRecordSource, baseUrl: string): MediaFileRecord {
  return {
    id: row.id,
    url: mediaUrl(baseUrl, row),
    alt_text: row.altText ?? '',
    filename: row.filename,
    mime_type: row.mimeType as MediaMimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    created_at: row.createdAt.toISOString(),
  };
}
