import type { MediaFile } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type MediaRow = MediaFile;

export type NewMedia = Omit<MediaRow, 'createdAt'>;

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

export async function updateAltText(db: Db, organizationId: string, id: string, altText: string | null): Promise<void> {
  await db.mediaFile.updateMany({ where: { id, organizationId }, data: { altText } });
}

/** Deletes the row; a foreign-key violation (still used by a product) is raised to the caller. */
export async function deleteMedia(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.mediaFile.deleteMany({ where: { id, organizationId } });
  return count > 0;
}
