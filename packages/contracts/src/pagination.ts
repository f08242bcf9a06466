import { z } from 'zod';
import { instantSchema, queryInteger } from './scalars.js';
import { strictFields } from './strict.js';

const LIMIT_MESSAGE = 'must be an integer from 1 to 200';

/** The longest `cursor` a list reads; no cursor a list makes comes near it (about 150 characters). */
export const LIST_CURSOR_MAX_LENGTH = 1024;
const OFFSET_MESSAGE = 'must be a non-negative integer';

/**
 * The query fields of every list endpoint (API.md, Conventions and "Change feed, conditional requests and
 * cursors"): `limit` (1..200, default 50); `offset` (≥ 0, default 0) or `cursor` (a page's `meta.next_cursor`)
 * to say where the page starts; `updated_since` to keep only the records changed since an instant.
 */
const paginationFields = {
  limit: queryInteger(
    z
      .number({ message: LIMIT_MESSAGE })
      .int({ message: LIMIT_MESSAGE })
      .min(1, { message: LIMIT_MESSAGE })
      .max(200, { message: LIMIT_MESSAGE }),
  )
    .default(50)
    .meta({ example: 50 }),
  // Capped at Postgres' int4 range, which OFFSET parameters are cast to. No zod default: an offset the client
  // did not send is undefined, so that one sent beside a cursor is told apart from the default 0 (ListPage applies it).
  offset: queryInteger(
    z
      .number({ message: OFFSET_MESSAGE })
      .int({ message: OFFSET_MESSAGE })
      .min(0, { message: OFFSET_MESSAGE })
      .max(2_147_483_647, { message: 'must be at most 2147483647' }),
  )
    .optional()
    .meta({ default: 0, example: 0, description: 'Records to skip. Not together with `cursor`.' }),
  // Any string reaches the list, which refuses one it did not make with 400 CURSOR_INVALID, a longer one too (the
  // document states the bound, the list enforces it): a VALIDATION_ERROR would say a cursor can be mistyped, not unknown.
  cursor: z.string({ message: 'must be a single string' }).optional().meta({
    maxLength: LIST_CURSOR_MAX_LENGTH,
    description:
      'Starts the page right after the last record of the page whose `meta.next_cursor` this is. Valid only with the filters that page was listed with (else 400 `CURSOR_INVALID`); replaces `offset`.',
  }),
  updated_since: instantSchema.optional().meta({
    description: 'Only records whose `updated_at` is at or after this instant (with an offset or `Z`).',
    example: '2026-03-08T07:30:00.000Z',
  }),
};

/** `cursor=` replaces `offset`: both at once is a 400 naming `offset`. */
function offsetOrCursor(query: { offset?: unknown; cursor?: unknown }, ctx: z.RefinementCtx): void {
  if (query.offset !== undefined && query.cursor !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['offset'], message: 'cannot be given together with cursor' });
  }
}

/**
 * The query schema of a list endpoint: the pagination fields and the list's own filters, strict. Every list
 * builds its query with this, never by spreading or extending another list's schema: the check that `offset`
 * and `cursor` are not both given lives on the object, and `.extend` or a spread would drop it.
 */
export function listQuerySchema<Shape extends z.ZodRawShape>(filters: Shape) {
  return z.strictObject({ ...paginationFields, ...filters }, strictFields).superRefine(offsetOrCursor);
}

/** The query of a list without filters of its own. */
export const paginationQuerySchema = listQuerySchema({});
export type Pagination = z.infer<typeof paginationQuerySchema>;
