import { sqlOf } from '@app/service-kit';
import type { MediaFile } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type MediaRow = MediaFile;

export type NewMedia = Omit<MediaRow, 'createdAt' | 'version'>;

export function insertMedia(db: Db, media: NewMedia): Promise<MediaRow> {
  return db.mediaFile.create({ data: media });
}

export function findMedia(db: Db, organizationId: string, id: string): Promise<MediaRow | null> {
  return db.mediaFile.findFirst({ where: { id, organizationId } });
}

/** Serving is public: the unguessable token is the only key. */
export function findMediaByToken(db: Db, token: string): Promise<MediaRow | null> {
  return db.mediaFile.findUnique({ where: { token } });
}

export async function listMedia(
  db: Db,
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

/**
 * Locks a media file of the organization until the transaction ends (against other writes of it, not against products
 * taking it: FOR NO KEY UPDATE) and reads its version; null when there is none.
 */
export async function lockMedia(db: Db, organizationId: string, id: string): Promise<{ id: string; version: number } | null> {
  const { rows } = await sqlOf(db).query<{ id: string; version: number }>(
    'SELECT id::text AS id, version FROM media_files WHERE id = $1::uuid AND organization_id = $2::uuid FOR NO KEY UPDATE',
    [id, organizationId],
  );
  return rows[0] ?? null;
}

export async function updateAltText(db: Db, organizationId: string, id: string, altText: string | null): Promise<void> {
  await db.mediaFile.updateMany({ where: { id, organizationId }, data: { altText } });
}

/** Deletes the row; a foreign-key violation (still used by a product) is raised to the caller. */
export async function deleteMedia(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.mediaFile.deleteMany({ where: { id, organizationId } });
  return count > 0;
}
