import { z } from 'zod';

/** Every machine-readable error code of API.md, with the HTTP status it is sent with. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_TRANSITION: 400,
  CURSOR_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  SCHEDULE_NOT_FOUND: 404,
  MEDIA_NOT_FOUND: 404,
  SLOT_TAKEN: 409,
  SLOT_UNAVAILABLE: 409,
  SLUG_TAKEN: 409,
  EVENT_FULL: 409,
  EVENT_NOT_OPEN: 409,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  ENDPOINT_DISABLED: 409,
  HOLD_INVALID: 409,
  DAY_LIMIT_REACHED: 409,
  SOLD_OUT: 409,
  SALES_CLOSED: 409,
  TICKET_TYPE_IN_USE: 409,
  ALREADY_CHECKED_IN: 409,
  NOT_CHECKABLE: 409,
  SKU_TAKEN: 409,
  VARIANT_EXISTS: 409,
  OUT_OF_STOCK: 409,
  CATEGORY_CYCLE: 409,
  CATEGORY_NOT_EMPTY: 409,
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const errorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/**
 * `{path, message}` for one failed field of a validation error; a refused booking series' details also say which
 * occurrence (`index`, 0-based), when it starts and why (`code`).
 */
export const errorDetailSchema = z.object({
  path: z.string(),
  message: z.string(),
  index: z.number().int().min(0).optional(),
  start_time: z.string().optional(),
  code: errorCodeSchema.optional(),
});

/** The one error body every service and the gateway answer with (the document narrows `code` per operation: error-responses.ts). */
export const errorBodySchema = z.object({
  error: z.string(),
  code: errorCodeSchema,
  details: z.array(errorDetailSchema).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const INTERNAL_ERROR_BODY: ErrorBody = { error: 'Internal server error', code: 'INTERNAL' };
