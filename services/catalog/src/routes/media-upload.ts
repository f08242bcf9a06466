import type { FastifyRequest } from 'fastify';
import { MAX_ALT_TEXT, unsafeTextProblem } from '@app/contracts';
import { AppError, invalidInput } from '@app/service-kit';
import { filenameProblem } from '../domain/media-names.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { discardUpload, storeUpload, type StoredUpload } from '../use-cases/media-upload.use-case.js';
import { tooLarge } from '../upload/image-probe.js';

/** The busboy limits of the upload route (the file size itself is enforced by the image probe). */
export function uploadLimits(maxBytes: number) {
  // One byte over the limit reaches the probe, which turns it into a 413.
  return { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12, headerPairs: 100 };
}

/**
 * Reads a `multipart/form-data` upload: the image in `file` (streamed into storage as it arrives) and
 * an optional `alt_text`, in either order. Whatever fails after the file was stored removes it again.
 */
export async function receiveUpload(
  request: FastifyRequest,
  ctx: UseCaseContext,
): Promise<{ upload: StoredUpload; altText: string | null }> {
  let upload: StoredUpload | undefined;
  let altText: string | null = null;
  let storing = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw invalidInput(part.fieldname, `Unexpected file field ${part.fieldname}: send the image as "file"`);
        }
        const problem = filenameProblem(part.filename);
        if (problem) {
          part.file.resume();
          throw invalidInput('filename', problem);
        }
        storing = true;
        upload = await storeUpload(ctx, { file: part.file, clientFilename: part.filename });
        storing = false;
      } else if (part.fieldname === 'alt_text') {
        altText = parseAltText(part.value);
      }
    }
  } catch (error) {
    discardRestOfBody(request);
    if (upload) await discardUpload(ctx, upload);
    // storeUpload already told the client's faults (AppError) from the server's (storage failures).
    throw storing ? error : asClientError(error, ctx.maxUploadBytes);
  }
  if (!upload) throw invalidInput('file', 'file is required');
  return { upload, altText };
}

/**
 * After an early failure (413 halfway through a file) the client may still be sending: read and drop the
 * rest, so it receives the answer and its connection stays usable instead of stalling on a paused socket.
 */
function discardRestOfBody(request: FastifyRequest): void {
  if (request.raw.readableEnded) return;
  request.raw.unpipe();
  request.raw.resume();
}

function parseAltText(value: unknown): string | null {
  if (typeof value !== 'string') throw invalidInput('alt_text', 'alt_text must be a string');
  const problem = unsafeTextProblem(value, 'text');
  if (problem !== undefined) throw invalidInput('alt_text', `alt_text ${problem}`);
  const text = value.trim();
  if (text.length > MAX_ALT_TEXT) throw invalidInput('alt_text', `alt_text must be at most ${MAX_ALT_TEXT} characters`);
  return text.length > 0 ? text : null;
}

/** Anything the multipart parser throws is about what the client sent: a 4xx, never a 500. */
function asClientError(error: unknown, maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Upload must be multipart/form-data with the image in a "file" field');
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
      return invalidInput('file', 'Only one file can be uploaded at a time');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalidInput('body', 'Too many form fields');
    default:
      return invalidInput('body', `Malformed multipart body: ${error instanceof Error ? error.message : String(error)}`);
  }
}
