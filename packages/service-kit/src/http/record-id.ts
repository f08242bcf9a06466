import { z } from 'zod';
import { isUuid } from '@app/contracts';
import { notFound, type AppError } from '../errors.js';

/** Path parameters of a record route. Any string passes, so that a malformed id is a 404 like an unknown one, never a 400. */
export const idParamsSchema = z.object({ id: z.string() });

/**
 * A record id from a path: the uuid in lower case, or the record's 404 when it cannot be one (a malformed id
 * names no record, and must never reach the database as a cast error). `missing` is the record's name
 * ("Booking" → 404 NOT_FOUND "Booking not found") or its own not-found error.
 */
export function recordId(raw: string, missing: string | (() => AppError)): string {
  if (!isUuid(raw)) throw typeof missing === 'string' ? notFound(missing) : missing();
  return raw.toLowerCase();
}
