/** Delay asked for by a `Retry-After` header (seconds or an HTTP date), in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

/** "Equal jitter": half the exponential delay fixed, half random, so retries spread out but never fire at once. */
function jittered(ms: number, random: () => number): number {
  return Math.round(ms / 2 + (random() * ms) / 2);
}

/** Delay before in-sync retry number `attempt` (1 = first retry) of a 5xx or network error. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number): number {
  return jittered(baseMs * 2 ** Math.max(0, attempt - 1), random);
}

const FAILURE_BACKOFF_BASE_MS = 30_000;

/**
 * When to try again after `failures` failed syncs (or writes) in a row: 30 s, 1 min, 2 min … capped by `intervalMs`
 * (a sync's regular interval, write-back's cap).
 */
export function failureBackoffMs(failures: number, intervalMs: number, random: () => number, baseMs = FAILURE_BACKOFF_BASE_MS): number {
  const exponential = baseMs * 2 ** Math.max(0, Math.min(failures - 1, 16));
  return jittered(Math.min(intervalMs, exponential), random);
}

/** The regular interval, ±10 %, so connections created together do not poll together forever. */
export function regularIntervalMs(intervalMs: number, random: () => number): number {
  return Math.round(intervalMs * (0.9 + 0.2 * random()));
}
