import type { MediaFileRecord } from '@app/contracts';
import type { MediaMimeType } from '../domain/image-type.js';
import type { MediaFile } from '../generated/prisma/client.js';
import type { Tx } from './client.js';

export type MediaRow = MediaFile;

/** The public address of a media file's bytes (served by media-content.route.ts, no key needed). */
export function mediaUrl(baseUrl: string, media: { token: string; publicName: string }): string {
  return `${baseUrl}/media/${media.token}/${media.publicName}`;
}

export function toMediaRecord(row: MediaRow, baseUrl: string): MediaFileRecord {
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

export type NewMedia = Omit<MediaRow, 'createdAt'>;

export function insertMedia(db: Tx, media: NewMedia): Promise<MediaRow> {
  return db.mediaFile.create({ data: media });
}

export function findMedia(db: Tx, organizationId: string, id: string): Promise<MediaRow | null> {
  return db.mediaFile.findFirst({ where: { id, organizationId } });
}

/** Serving is public: the unguessable token is the only key. */
export function findMediaByToken(db: Tx, token: string): Promise<MediaRow | null> {
  return db.mediaFile.findUnique({ where: { token } });
}

export async function listMedia(
  db: Tx,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: MediaRow[]; total: number }> {
  const where = { organizationId };
  const [rows, total] = await Promise.all([
    db.mediaFile.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: page.limit, skip: page.offset }),
    db.mediaFile.count({ where }),
  ]);
  return { rows, total };
}

export async function updateAltText(db: Tx, organizationId: string, id: string, altText: string | null): Promise<void> {
  await db.mediaFile.updateMany({ where: { id, organizationId }, data: { altText } });
}

/** Deletes the row; a foreign-key violation (still used by a product) is raised to the caller. */
export async function deleteMedia(db: Tx, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.mediaFile.deleteMany({ where: { id, organizationId } });
  return count > 0;
}
