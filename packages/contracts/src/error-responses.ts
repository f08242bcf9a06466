import { z } from 'zod';
import { ERROR_STATUS, errorDetailSchema, type ErrorCode } from './errors.js';

/** What each code means, as API.md's table says: the text of an error response's description. */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'the body, query or a header fails validation; `error` names the first bad field and `details` lists each',
  INVALID_TRANSITION: 'the status move is not allowed: `Cannot transition from <FROM> to <TO>`',
  CURSOR_INVALID: 'an unknown, expired or malformed cursor, or one made with other filters or by another organization',
  UNAUTHORIZED: 'missing, malformed, unknown or revoked key',
  FORBIDDEN: 'a restricted or publishable key calling what it may not (the message says which scope or rule)',
  ORIGIN_NOT_ALLOWED: 'a publishable key used from a browser origin it does not list',
  NOT_FOUND: 'unknown id, or a record of another organization',
  SCHEDULE_NOT_FOUND: '`Schedule not found or inactive`',
  MEDIA_NOT_FOUND: '`Media file not found`',
  SLOT_TAKEN: '`This time slot is already booked`',
  SLOT_UNAVAILABLE: "outside the schedule's availability or over a calendar busy time",
  SLUG_TAKEN: 'the slug is already used in the organization',
  EVENT_FULL: 'fewer places remain than asked for',
  EVENT_NOT_OPEN: 'the event is not published, or is over',
  CONFLICT: 'the request conflicts with the current state (the message says how)',
  IDEMPOTENCY_KEY_REUSED: 'the `Idempotency-Key` was already used with another body',
  ENDPOINT_DISABLED: 'a test or retry sent to a disabled webhook endpoint',
  HOLD_INVALID: "the booking's `hold_id` is expired, released, used, or does not match the booking",
  DAY_LIMIT_REACHED: "the schedule's `max_bookings_per_day` is reached on that local day",
  SOLD_OUT: "the ticket type's quantity would be exceeded",
  SALES_CLOSED: "outside the ticket type's sales window",
  TICKET_TYPE_IN_USE: 'the ticket type is deleted while registrations use it',
  ALREADY_CHECKED_IN: "the code was already checked in (the message gives the first check-in's time)",
  NOT_CHECKABLE: 'the registration cannot be checked in',
  SKU_TAKEN: 'the `sku` is already used in the organization',
  VARIANT_EXISTS: 'another variant of the product has the same option values',
  OUT_OF_STOCK: 'some items are short; `details` names every short item (`items.<index>`) and no other',
  CATEGORY_CYCLE: 'the parent would make a cycle (the category itself or one of its descendants)',
  CATEGORY_NOT_EMPTY: 'the category has children',
  REQUEST_TIMEOUT: 'the request (headers and body) did not arrive within the time limit; the connection is closed',
  PRECONDITION_FAILED: "`If-Match` is not the record's current ETag: it changed since it was read, and nothing was changed now",
  PAYLOAD_TOO_LARGE: 'the body or upload is over the limit',
  UNSUPPORTED_MEDIA_TYPE: 'the content type is not accepted, or an upload is not an image (judged by its bytes)',
  RATE_LIMITED: 'too many requests; retry after `Retry-After` seconds',
  INTERNAL: 'an unexpected failure (no details are given)',
  UPSTREAM_UNAVAILABLE: 'a service this request needs did not answer in time; retry after `Retry-After` seconds',
};

/** The error body of one response: API.md's shape, with `code` narrowed to what that response can carry. */
export function errorBodyWith(codes: readonly ErrorCode[]) {
  const sorted = [...new Set(codes)].sort() as [ErrorCode, ...ErrorCode[]];
  return z
    .object({ error: z.string(), code: z.enum(sorted), details: z.array(errorDetailSchema).optional() })
    .describe(sorted.map((code) => `\`${code}\`: ${ERROR_MEANINGS[code]}.`).join(' '));
}

export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];
export type ErrorResponses = Partial<Record<ErrorStatus, ReturnType<typeof errorBodyWith>>>;

/**
 * The error responses of one operation for its route schema: one per status, each listing only the codes
 * this operation can answer with. What every route of a kind can answer (a body's 413, a creating POST's
 * `IDEMPOTENCY_KEY_REUSED`, the gateway's 401, 429 and 503) is added for it by the service kit and the
 * gateway, so a route lists its own decisions only.
 */
export function errorResponses(...codes: ErrorCode[]): ErrorResponses {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries([...byStatus].map(([status, list]) => [status, errorBodyWith(list)]));
}

/** The codes an error response schema made by errorBodyWith allows (none for any other schema). */
export function codesOf(schema: unknown): ErrorCode[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const code = schema.shape.code;
  return code instanceof z.ZodEnum ? (code.options as ErrorCode[]) : [];
}

/** `responses` with `codes` added to the statuses they belong to. */
export function withErrorCodes(responses: Record<string | number, unknown>, codes: ErrorCode[]): Record<string | number, unknown> {
  const merged = { ...responses };
  for (const [status, schema] of Object.entries(errorResponses(...codes))) {
    merged[status] = errorBodyWith([...codesOf(merged[status]), ...codesOf(schema)]);
  }
  return merged;
}
