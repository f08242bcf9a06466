import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@app/service-kit';
import { cleanFilename } from '../domain/media-names.js';
import { ImageProbe, type ImageFacts } from '../upload/image-probe.js';
import type { UseCaseContext } from './context.js';

/** An upload whose bytes are in storage but which has no media row yet. */
export interface StoredUpload {
  token: string;
  filename: string;
  facts: ImageFacts;
}

/**
 * Streams an uploaded file into storage through the image probe: only an accepted image within the byte
 * and pixel limits is kept (413/415 otherwise, decided before storage commits the file, so nothing is left). The storage key is the URL token.
 * No caller: the bytes belong to no organization until createMedia records them.
 */
export async function storeUpload(
  ctx: UseCaseContext,
  { file, clientFilename }: { file: Readable; clientFilename: string | undefined },
): Promise<StoredUpload> {
  const token = randomBytes(24).toString('base64url');
  const probe = new ImageProbe({ maxBytes: ctx.maxUploadBytes, maxPixels: ctx.maxUploadPixels });
  // The multipart parser may have failed the stream before we got it (a cut-off body arrives at once).
  let sourceError: unknown = file.errored ?? undefined;
  file.once('error', (error) => {
    sourceError ??= error;
  });
  // Both run at once: the first wires errors both ways at once (an early 415 must never go unheard),
  // the second drains the probe into storage. Any failure destroys the upload stream too.
  const [piped, stored] = await Promise.allSettled([pipeline(file, probe), ctx.storage.put(token, probe)]);
  const failure: unknown = stored.status === 'rejected' ? stored.reason : piped.status === 'rejected' ? piped.reason : undefined;
  if (failure !== undefined) {
    await discardUpload(ctx, { token });
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
    await discardUpload(ctx, { token });
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

/** Removes a stored upload that will not get a media row (a later part of the request failed). No caller, as storeUpload. */
export async function discardUpload(ctx: UseCaseContext, upload: { token: string }): Promise<void> {
  await ctx.storage.delete(upload.token).catch((error: unknown) => ctx.log.warn({ err: error }, 'could not remove a discarded upload'));
}
