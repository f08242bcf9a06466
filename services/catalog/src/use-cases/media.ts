import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  listMeta,
  mediaCreatedEvent,
  mediaDeletedEvent,
  type ListMeta,
  type MediaFileRecord,
  type Pagination,
  isUuid,
} from '@app/contracts';
import { AppError, recordEvent } from '@app/service-kit';
import { isForeignKeyViolation } from '../db/constraint-error.js';
import * as media from '../db/media.repository.js';
import { cleanFilename, publicFileName } from '../domain/media-names.js';
import { ImageProbe, type ImageFacts } from '../upload/image-probe.js';
import { eventContext, mediaNotFound, type Caller, type CatalogDeps } from './context.js';

/** An upload whose bytes are in storage but which has no media row yet. */
export interface StoredUpload {
  token: string;
  filename: string;
  facts: ImageFacts;
}

/**
 * Streams an uploaded file into storage through the image probe: only an accepted image within the size
 * limit is kept (413/415 otherwise, with nothing left in storage). The storage key is the URL token.
 */
export async function storeUpload(deps: CatalogDeps, file: Readable, clientFilename: string | undefined): Promise<StoredUpload> {
  const token = randomBytes(24).toString('base64url');
  const probe = new ImageProbe(deps.maxUploadBytes);
  // The multipart parser may have failed the stream before we got it (a cut-off body arrives at once).
  let sourceError: unknown = file.errored ?? undefined;
  file.once('error', (error) => {
    sourceError ??= error;
  });
  // Both run at once: the first wires errors both ways at once (an early 415 must never go unheard),
  // the second drains the probe into storage. Any failure destroys the upload stream too.
  const [piped, stored] = await Promise.allSettled([pipeline(file, probe), deps.storage.put(token, probe)]);
  const failure: unknown = stored.status === 'rejected' ? stored.reason : piped.status === 'rejected' ? piped.reason : undefined;
  if (failure !== undefined) {
    await discardUpload(deps, { token });
    throw isMalformedUpload(failure, sourceError)
      ? new AppError('VALIDATION_ERROR', 'Malformed or incomplete multipart body', undefined, [
          { path: 'body', message: 'the multipart body ended before its closing boundary' },
        ])
      : failure;
  }
  try {
    const facts = probe.facts();
    return { token, filename: cleanFilename(clientFilename, facts.ext), facts };
  } catch (error) {
    await discardUpload(deps, { token });
    throw error;
  }
}

/**
 * The upload stream's own failure (cut-off or malformed multipart data) is the client's fault; storage
 * failures (system errors, with a syscall) and the probe's verdicts (AppError) are not.
 */
function isMalformedUpload(failure: unknown, sourceError: unknown): boolean {
  if (failure instanceof AppError || failure !== sourceError) return false;
  return !(failure instanceof Error && 'syscall' in failure);
}

/** Removes a stored upload that will not get a media row (a later part of the request failed). */
export async function discardUpload(deps: CatalogDeps, upload: { token: string }): Promise<void> {
  await deps.storage.delete(upload.token).catch((error: unknown) => deps.log.warn({ err: error }, 'could not remove a discarded upload'));
}

export async function createMedia(
  deps: CatalogDeps,
  caller: Caller,
  upload: StoredUpload,
  altText: string | null,
): Promise<MediaFileRecord> {
  const { facts } = upload;
  try {
    const row = await deps.prisma.$transaction(async (tx) => {
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
      const url = media.mediaUrl(deps.publicBaseUrl, created);
      const data = { id: created.id, mime_type: facts.mime, size: facts.size, width: facts.width, height: facts.height, url };
      await recordEvent(tx, mediaCreatedEvent, data, eventContext(caller));
      return created;
    });
    deps.relay.wake();
    return media.toMediaRecord(row, deps.publicBaseUrl);
  } catch (error) {
    await discardUpload(deps, upload);
    throw error;
  }
}

export async function getMedia(deps: CatalogDeps, caller: Caller, id: string): Promise<MediaFileRecord> {
  const row = isUuid(id) ? await media.findMedia(deps.prisma, caller.organizationId, id) : null;
  if (!row) throw mediaNotFound();
  return media.toMediaRecord(row, deps.publicBaseUrl);
}

export async function listMedia(deps: CatalogDeps, caller: Caller, page: Pagination): Promise<{ data: MediaFileRecord[]; meta: ListMeta }> {
  const { rows, total } = await media.listMedia(deps.prisma, caller.organizationId, page);
  return { data: rows.map((row) => media.toMediaRecord(row, deps.publicBaseUrl)), meta: listMeta(total, page.limit, page.offset) };
}

/**
 * Deletes a media file that no product uses. One still attached as a product image or set as a product's
 * featured image is refused with 409 (the foreign keys decide, so a concurrent attach cannot slip by).
 */
export async function deleteMedia(deps: CatalogDeps, caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  const row = isUuid(id) ? await media.findMedia(deps.prisma, caller.organizationId, id) : null;
  if (!row) throw mediaNotFound();
  try {
    await deps.prisma.$transaction(async (tx) => {
      if (!(await media.deleteMedia(tx, caller.organizationId, row.id))) throw mediaNotFound();
      await recordEvent(tx, mediaDeletedEvent, { id: row.id }, eventContext(caller));
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError('CONFLICT', 'Media file is used by a product; remove it from the product first');
    throw error;
  }
  deps.relay.wake();
  // After the commit: the row is gone, so the bytes are no longer served even if this removal fails.
  await deps.storage
    .delete(row.storageKey)
    .catch((error: unknown) => deps.log.warn({ err: error, media_file_id: id }, 'could not remove the bytes of a deleted media file'));
  return { id: row.id, deleted: true };
}
