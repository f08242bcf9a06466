import type { ListMeta } from '@app/contracts';
import { inPageOrder, lockVersion, pageOfIds, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { MediaFile } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type MediaRow = MediaFile;

export type NewMedia = Omit<MediaRow, 'createdAt' | 'updatedAt' | 'version'>;

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

/** Newest first, then by id: served by media_files_org_created_idx (organization, created_at DESC, id DESC). */
export const MEDIA_LIST: ListDefinition = {
  name: 'media',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'DESC',
  },
};

/** One page of the organization's media files (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listMedia(
  db: { pool: Queryable; prisma: Db },
  organizationId: string,
  page: ListPage,
): Promise<{ rows: MediaRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`];
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'media_files', conditions, params });
  const rows = await db.prisma.mediaFile.findMany({ where: { organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}

/**
 * Locks a media file of the organization until the transaction ends (against other writes of it, not against products
 * taking it: FOR NO KEY UPDATE) and reads its version; null when there is none.
 */
export async function lockMedia(db: Db, organizationId: string, id: string): Promise<{ id: string; version: number } | null> {
  const version = await lockVersion(db, 'media_files', organizationId, id, 'NO KEY UPDATE');
  return version === null ? null : { id, version };
}

export async function updateAltText(db: Db, organizationId: string, id: string, altText: string | null): Promise<void> {
  await db.mediaFile.updateMany({ where: { id, organizationId }, data: { altText } });
}

/** Deletes the row; a foreign-key violation (still used by a product) is raised to the caller. */
export async function deleteMedia(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.mediaFile.deleteMany({ where: { id, organizationId } });
  return count > 0;
}
