/** How the client retries a 429 or 503. */
export interface RetryOptions {
  /** Attempts in all, the first included (1 = never retry). Default 3. */
  maxAttempts: number;
  /** Backoff when the answer has no `Retry-After`: `baseDelayMs · 2^(retry-1)`, capped, with jitter. Default 500. */
  baseDelayMs: number;
  /** Cap of that backoff. Default 8000. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the 429/503 is thrown at once. Default 60000. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

const RETRIED_STATUSES = new Set([429, 503]);
/** Methods whose repetition cannot create twice. POST and PATCH only when they carry an `Idempotency-Key` (PATCH: or If-Match). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

type Fetch = (request: Request) => Promise<Response>;

/** A fetch that retries 429 and 503 answers of requests safe to repeat, honouring `Retry-After` and the request's signal. */
export function retryingFetch(fetch: Fetch, options: RetryOptions, random: () => number = Math.random): Fetch {
  return async (request) => {
    const retryable = isSafeToRepeat(request);
    for (let attempt = 1; ; attempt += 1) {
      const last = !retryable || attempt >= options.maxAttempts;
      // Each attempt sends a copy: a body can be read once, and the retry must send it again.
      const response = await fetch(last ? request : request.clone());
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const delay = retryDelay(attempt, response.headers.get('retry-after'), options, Date.now(), random);
      if (delay === undefined) return response;
      await response.body?.cancel(); // frees the connection; the answer is replaced by the retry's
      await sleep(delay, request.signal);
    }
  };
}

/**
 * GET/HEAD/OPTIONS/PUT/DELETE, POST/PATCH carrying an `Idempotency-Key` (the server answers a repeat with the first
 * answer), and a PATCH carrying `If-Match`: it applies at most once, since a repeat after one that applied finds a new
 * ETag and is a 412.
 */
function isSafeToRepeat(request: Request): boolean {
  return (
    IDEMPOTENT_METHODS.has(request.method) ||
    request.headers.has('idempotency-key') ||
    (request.method === 'PATCH' && request.headers.has('if-match'))
  );
}

/**
 * Milliseconds to wait before retry number `attempt` (1 = the first retry): the server's `Retry-After` when it
 * gave one, else capped exponential backoff with jitter (half fixed, half random). Undefined: do not retry.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | null,
  options: RetryOptions,
  now: number,
  random: () => number,
): number | undefined {
  const asked = parseRetryAfter(retryAfter, now);
  if (asked !== undefined) return asked <= options.maxRetryAfterMs ? asked : undefined;
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return backoff / 2 + random() * (backoff / 2);
}

/** `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when absent or invalid. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month (`Sun, 06 Nov 1994 08:49:37 GMT`); Date.parse alone takes `1.5` for a date.
  const date = /^[a-z]{3,9},? /i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}
