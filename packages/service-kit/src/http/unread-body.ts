import type { IncomingMessage } from 'node:http';

/** The most of a refused body that is read to let the refusal arrive: above the largest upload the API takes. */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
/** And the longest that takes: a client trickling its body is not waited for. */
const DISCARD_MAX_MS = 15_000;

/** True when the request has a body that nothing has read to its end (a refusal came before it). */
export function hasUnreadBody(request: IncomingMessage): boolean {
  if (request.complete || request.readableEnded || request.destroyed) return false;
  const declared = Number(request.headers['content-length'] ?? 0);
  return declared > 0 || request.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the rest of the body and throws it away. Resolves true when it ended within DISCARD_MAX_BYTES and
 * DISCARD_MAX_MS (the connection can stay open), false otherwise (the caller closes it after answering).
 */
export function discardBody(request: IncomingMessage): Promise<boolean> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > DISCARD_MAX_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (complete: boolean) => {
      clearTimeout(timer);
      request.off('data', count);
      request.off('end', ended);
      request.off('error', failed);
      request.off('close', closed);
      resolve(complete);
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DISCARD_MAX_BYTES) finish(false);
    };
    const ended = () => finish(true);
    const failed = () => finish(false);
    const closed = () => finish(request.complete);
    const timer = setTimeout(() => finish(false), DISCARD_MAX_MS);
    request.on('data', count);
    request.once('end', ended);
    request.once('error', failed);
    request.once('close', closed);
    // Whatever was reading it (a multipart parser that gave up) lets go, and the stream flows into nothing.
    request.unpipe();
    request.resume();
  });
}
