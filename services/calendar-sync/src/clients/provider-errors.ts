import { parseRetryAfter } from '../domain/retry-policy.js';

/** The refresh token was refused (`invalid_grant`): the user has to connect the calendar again. */
export class ReauthRequiredError extends Error {}

/** The provider asked us to wait longer than a sync waits (429/503 with a long Retry-After). */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/** A provider request that failed for good (after retries, or a 4xx that no retry fixes). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * A failure a later try may fix (5xx, timeout, network error) that outlasted a request's retries, or that was not
 * retried because the request must not be sent twice blindly (an event insert): the write-back step is tried again.
 */
export class ProviderUnavailableError extends ProviderError {}

/** An HTTP failure in provider-neutral terms; `status` undefined = network error or timeout. */
export interface HttpFailure {
  status: number | undefined;
  retryAfterMs: number | undefined;
  message: string;
}

export type Classified =
  | { kind: 'retry'; retryAfterMs: number | undefined; message: string }
  | { kind: 'reauth'; message: string }
  | { kind: 'fail'; message: string; status?: number };

/** 429 and 503 honour Retry-After; other 5xx, timeouts and network errors are retried with jitter; the rest fail. */
export function classifyHttpFailure(failure: HttpFailure): Classified {
  const { status } = failure;
  if (status === undefined || status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', retryAfterMs: status === 429 || status === 503 ? failure.retryAfterMs : undefined, message: failure.message };
  }
  return { kind: 'fail', message: failure.message, status };
}

/**
 * Reads `Retry-After` from a fetch-style `Headers` (duck-typed: gaxios brings its own Headers class, so
 * `instanceof Headers` fails) or a plain header object.
 */
export function retryAfterFrom(headers: unknown, now = new Date()): number | undefined {
  if (headers && typeof (headers as { get?: unknown }).get === 'function') {
    const value: unknown = (headers as { get(name: string): unknown }).get('retry-after');
    return typeof value === 'string' ? parseRetryAfter(value, now) : undefined;
  }
  if (headers && typeof headers === 'object') {
    const value = (headers as Record<string, unknown>)['retry-after'];
    return typeof value === 'string' ? parseRetryAfter(value, now) : undefined;
  }
  return undefined;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
