import { randomUUID } from 'node:crypto';
import { mediaCreatedEvent, mediaDeletedEvent, type ListMeta, type MediaFileRecord, type Pagination } from '@app/contracts';
import {
  AppError,
  eventContextOf,
  isForeignKeyViolation,
  listPage,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import * as media from '../db/media.repository.js';
import { mediaEtag } from '../domain/media-etag.js';
import { mediaRecord } from '../domain/media.record.js';
import { mediaUrl, publicFileName } from '../domain/media-names.js';
import type { StoredObject } from '../db/media-storage.js';
import { mediaNotFound, type UseCaseContext } from './context.js';
import { discardUpload, type StoredUpload } from './media-upload.use-case.js';

/** Records a stored upload as a media file of the caller's organization; the upload is discarded if that fails. */
export async function createMedia(
  ctx: UseCaseContext,
  caller: Caller,
  { upload, altText }: { upload: StoredUpload; altText: string | null },
): Promise<MediaFileRecord> {
  const { facts } = upload;
  try {
    const record = await ctx.prisma.$transaction(async (tx) => {
      const created = await media.insertMedia(tx, {
        id: randomUUID(),
        organizationId: caller.organizationId,
        token: upload.token,
        storageKey: upload.token,
        filename: upload.filename,
        publicName: publicFileName(upload.filename, facts.ext),
        mimeType: facts.mime,
        size: facts.size,
        width: facts.width,
        height: facts.height,
        altText,
      });
      const url = mediaUrl(ctx.publicBaseUrl, created);
      const record = mediaRecord(created, ctx.publicBaseUrl);
      const data = { id: created.id, mime_type: facts.mime, size: facts.size, width: facts.width, height: facts.height, url, record };
      await recordEvent(tx, mediaCreatedEvent, data, eventContextOf(caller));
      return record;
    });
    ctx.relay.wake();
    return record;
  } catch (error) {
    await discardUpload(ctx, upload);
    throw error;
  }
}

export async function getMedia(ctx: UseCaseContext, caller: Caller, id: string): Promise<Versioned<MediaFileRecord>> {
  const row = await media.findMedia(ctx.prisma, caller.organizationId, recordId(id, mediaNotFound));
  if (!row) throw mediaNotFound();
  return { record: mediaRecord(row, ctx.publicBaseUrl), version: row.version };
}

export async function listMedia(
  ctx: UseCaseContext,
  caller: Caller,
  query: Pagination,
): Promise<{ items: MediaFileRecord[]; meta: ListMeta }> {
  const page = listPage(media.MEDIA_LIST, { organizationId: caller.organizationId }, query);
  const { rows, meta } = await media.listMedia(ctx, caller.organizationId, page);
  return { items: rows.map((row) => mediaRecord(row, ctx.publicBaseUrl)), meta };
}

/**
 * Deletes a media file that no product uses. One still attached as a product image or set as a product's
 * featured image is refused with 409 (the foreign keys decide, so a concurrent attach cannot slip by).
 */
export async function deleteMedia(
  ctx: UseCaseContext,
  caller: Caller,
  { id, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const row = await media.findMedia(ctx.prisma, caller.organizationId, recordId(id, mediaNotFound));
  if (!row) throw mediaNotFound();
  try {
    await ctx.prisma.$transaction(async (tx) => {
      if (ifMatch) {
        // Checked under the row lock the delete then keeps (an alt text change waits for it).
        const locked = await media.lockMedia(tx, caller.organizationId, row.id);
        if (!locked) throw mediaNotFound();
        requireMatch(ifMatch, locked);
      }
      if (!(await media.deleteMedia(tx, caller.organizationId, row.id))) throw mediaNotFound();
      await recordEvent(tx, mediaDeletedEvent, { id: row.id }, eventContextOf(caller));
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError('CONFLICT', 'Media file is used by a product; remove it from the product first');
    throw error;
  }
  ctx.relay.wake();
  // After the commit: the row is gone, so the bytes are no longer served even if this removal fails.
  await ctx.storage
    .delete(row.storageKey)
    .catch((error: unknown) => ctx.log.warn({ err: error, media_file_id: id }, 'could not remove the bytes of a deleted media file'));
  return { id: row.id, deleted: true };
}

/** A token is 24 random bytes in base64url; anything else cannot name a file and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** What the public URL answers: the bytes, or only that the client's copy (its If-None-Match) is current. */
export interface MediaContent {
  mimeType: string;
  etag: string;
  /** null when the client's copy is current (304). */
  stored: StoredObject | null;
}

/**
 * The bytes of a media file at its public URL. No caller: the URL is public, and its random token is what
 * keeps a file private to whoever was given it. A name other than the file's own is a 404. When
 * `isCurrent` says the client holds this ETag, storage is not read.
 */
export async function getMediaContent(
  ctx: UseCaseContext,
  { token, name, isCurrent }: { token: string; name: string; isCurrent: (etag: string) => boolean },
): Promise<MediaContent> {
  const row = TOKEN.test(token) ? await media.findMediaByToken(ctx.prisma, token) : null;
  if (!row || row.publicName !== name) throw mediaNotFound();
  const etag = mediaEtag(row);
  if (isCurrent(etag)) return { mimeType: row.mimeType, etag, stored: null };
  const stored = await ctx.storage.get(row.storageKey);
  if (!stored) throw mediaNotFound();
  return { mimeType: row.mimeType, etag, stored };
}
