import { createHash } from 'node:crypto';
import { LIST_CURSOR_MAX_LENGTH } from '@app/contracts';
import { AppError } from '../errors.js';
import { canonicalJson } from '../http/idempotency/request-hash.js';

/**
 * What a list cursor is valid for: one list (and order), one organization, one set of filters. A cursor carries
 * a digest of it, so one made for other filters, another list or another organization is refused rather than
 * read as a position in a list it was never part of.
 */
export interface CursorScope {
  list: string;
  organizationId: string;
  filters: Record<string, unknown>;
}

/** The cursor format: bump it when the payload changes, and every cursor of the old one is CURSOR_INVALID. */
const VERSION = 1;

interface CursorPayload {
  /** The format's version. */
  v: number;
  /** The digest of the scope and the keys. */
  s: string;
  /** The sort key values of the record the next page starts after, as Postgres wrote them (text). */
  k: string[];
}

export function cursorInvalid(message: string): AppError {
  return new AppError('CURSOR_INVALID', message);
}

/**
 * 128 bits of the SHA-256 of the scope and the keys: two scopes never share one by chance, and a cursor whose keys were
 * edited (a position no page ever ended at) is as unknown as one of another scope. Not a signature: it keeps cursors
 * to where they were made, which is all they need (their keys are values the list shows anyway).
 */
function cursorDigest(scope: CursorScope, keys: readonly string[]): string {
  return createHash('sha256')
    .update(canonicalJson([scope.list, scope.organizationId, scope.filters, keys]))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * The opaque cursor after the record whose sort key values are `keys`: base64url of a small versioned JSON
 * payload. The values are the record's own (its created_at and id, say), which the list shows anyway; what
 * needs guarding is that the cursor is used only where, and as, it was made, and that is the digest's job.
 */
export function encodeListCursor(scope: CursorScope, keys: readonly string[]): string {
  const payload: CursorPayload = { v: VERSION, s: cursorDigest(scope, keys), k: [...keys] };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

function payloadOf(cursor: string): CursorPayload | undefined {
  if (cursor.length === 0 || cursor.length > LIST_CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { v, s, k } = value as Record<string, unknown>;
    if (v !== VERSION || typeof s !== 'string' || !Array.isArray(k) || !k.every((key) => typeof key === 'string')) return undefined;
    return { v, s, k: k as string[] };
  } catch {
    return undefined;
  }
}

/**
 * The sort key values a cursor holds, each checked by `isKey` (its position and text), so that nothing but
 * a well-formed value of the key's type ever reaches a statement. Throws 400 CURSOR_INVALID, naming the query
 * parameter `field` the cursor came in, for anything that is not a cursor of this scope.
 */
export function decodeListCursor(
  scope: CursorScope,
  cursor: string,
  isKey: readonly ((text: string) => boolean)[],
  field = 'cursor',
): string[] {
  const payload = payloadOf(cursor);
  if (!payload || payload.k.length !== isKey.length || !payload.k.every((key, index) => isKey[index]?.(key) === true)) {
    throw cursorInvalid(`${field} is malformed or unknown`);
  }
  if (payload.s !== cursorDigest(scope, payload.k)) {
    throw cursorInvalid(`${field} is unknown, or was made for other filters, another list or another organization`);
  }
  return payload.k;
}
