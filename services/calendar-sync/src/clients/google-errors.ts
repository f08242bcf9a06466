import { gaxios } from 'google-auth-library';
import { classifyHttpFailure, describeError, retryAfterFrom, type Classified } from './provider-errors.js';

const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

interface GoogleErrorBody {
  /** OAuth errors (token endpoint) are a string; API errors an object with `errors[].reason`. */
  error?: string | { message?: string; errors?: { reason?: string }[] };
  error_description?: string;
}

/** Maps what `@googleapis/calendar` / `google-auth-library` throw onto the sync's retry rules. */
export function classifyGoogleError(error: unknown): Classified {
  if (!(error instanceof gaxios.GaxiosError)) return { kind: 'fail', message: `Google request failed: ${describeError(error)}` };
  const status = error.response?.status ?? error.status;
  const body = (error.response?.data ?? {}) as GoogleErrorBody;
  const fromTokenEndpoint = typeof body.error === 'string';
  if (fromTokenEndpoint && body.error === 'invalid_grant') {
    return { kind: 'reauth', message: 'Google refused the refresh token (invalid_grant): connect the calendar again' };
  }
  if (status === undefined)
    return { kind: 'retry', retryAfterMs: undefined, message: `Google could not be reached: ${describeError(error)}` };
  const reasons = typeof body.error === 'object' ? (body.error.errors ?? []).map((e) => e.reason ?? '') : [];
  const what = fromTokenEndpoint
    ? `Google token endpoint answered ${status} (${String(body.error)})`
    : `Google Calendar answered ${status}`;
  // Google signals some rate limits with 403 and a reason rather than 429.
  if (status === 403 && reasons.some((reason) => RATE_LIMIT_REASONS.has(reason))) {
    return { kind: 'retry', retryAfterMs: retryAfterFrom(error.response?.headers), message: `${what} (${reasons.join(', ')})` };
  }
  const detail = typeof body.error === 'object' && body.error.message ? `: ${body.error.message}` : '';
  return classifyHttpFailure({ status, retryAfterMs: retryAfterFrom(error.response?.headers), message: `${what}${detail}` });
}
