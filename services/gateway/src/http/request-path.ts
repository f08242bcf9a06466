import type { FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';

/** C0 controls and DEL: no resource is named with them, and no upstream request may carry them decoded. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Whether the path of a request target (its query aside) can name no resource: a control character once decoded
 * (`%00`, `%09`), or a dot segment once decoded (`..`, `%2e%2e`, `..%2f`), which the proxy (reply-from) refuses as
 * path traversal with its own message. The dot-segment rule is reply-from's own (any `/..` or `../`), so no path it
 * would refuse gets past this check. Raw control or non-ASCII bytes never get here (Node's HTTP parser answers them
 * with the kit's plain 400), nor does percent-encoding that is not UTF-8 (the router's plain 404); should one
 * arrive, it is malformed too, since reply-from's decoding would throw on it.
 */
function isMalformedPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return hasControlCharacter(decoded) || decoded === '..' || decoded.includes('/..') || decoded.includes('../');
}

/**
 * onRequest hook, first of the gateway's: a malformed path is a plain 400 before authentication and before any
 * proxy sees it, rather than the proxy's internal message with a `path` of `body`.
 */
export async function refuseMalformedPath(request: FastifyRequest): Promise<void> {
  if (isMalformedPath(request.url)) throw new AppError('VALIDATION_ERROR', 'Malformed request path');
}
