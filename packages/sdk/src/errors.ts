import { parseRetryAfter } from './retry.js';
import type { ErrorBody, ErrorCode, ErrorDetail, Method, OperationErrorBody, PathsFor } from './types.js';

/**
 * Thrown for every answer outside 2xx. `code`, `details` and `body` come from the API's error body
 * (`{error, code, details?}`); they are undefined / empty when the body was not that shape (a proxy's HTML page).
 */
export class ApiError<Body = ErrorBody> extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly details: ErrorDetail[];
  readonly requestId: string | undefined;
  /** How long the server asked to wait (`Retry-After`), on a 429 or 503 the client did not or could no longer retry. */
  readonly retryAfterMs: number | undefined;
  readonly body: Body | undefined;
  readonly response: Response;
  /** The operation called: method in capitals and the schema path (`/api/v1/bookings/{id}`). */
  readonly operation: { method: string; path: string };

  constructor(response: Response, body: Body | undefined, operation: { method: string; path: string }, message: string) {
    super(message);
    this.status = response.status;
    this.response = response;
    this.body = body;
    this.operation = operation;
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    this.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const documented: unknown = body;
    this.code = isErrorBody(documented) ? documented.code : undefined;
    this.details = isErrorBody(documented) ? (documented.details ?? []) : [];
  }
}

/** The ApiError for a non-2xx response whose body openapi-fetch has already read (parsed JSON, or text). */
export function apiErrorOf(response: Response, body: unknown, method: string, path: string): ApiError {
  const operation = { method: method.toUpperCase(), path };
  const documented = isErrorBody(body) ? body : undefined;
  const message = documented?.error ?? `${operation.method} ${path} answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(response, documented, operation, message);
}

/**
 * True for an ApiError; with a method and schema path, only for one thrown by that operation, whose `body` is
 * then typed as that operation's documented error body.
 */
export function isApiError(error: unknown): error is ApiError;
export function isApiError<M extends Method, P extends PathsFor<M>>(
  error: unknown,
  method: M,
  path: P,
): error is ApiError<OperationErrorBody<P, M>>;
export function isApiError(error: unknown, method?: Method, path?: string): boolean {
  if (!(error instanceof ApiError)) return false;
  return method === undefined || (error.operation.method === method.toUpperCase() && error.operation.path === path);
}

function isErrorBody(body: unknown): body is ErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    'error' in body &&
    typeof body.error === 'string' &&
    'code' in body &&
    typeof body.code === 'string' &&
    (!('details' in body) || Array.isArray(body.details))
  );
}
