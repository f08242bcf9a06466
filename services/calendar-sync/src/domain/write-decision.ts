import type { WriteStatus } from './calendar-write.js';
import { failureBackoffMs } from './retry-policy.js';

/** What one attempt at a booking's provider event came to; `eventId` is what the provider holds as far as we know. */
export type WriteOutcome =
  | { kind: 'done'; eventId: string | null }
  /** The provider asked us to wait (429/503 with a Retry-After longer than a write waits). */
  | { kind: 'retry_later'; delayMs: number; message: string; eventId: string | null }
  | { kind: 'failed'; message: string; eventId: string | null }
  /** The refresh token was refused: the connection needs the user again; its writes wait for that. */
  | { kind: 'reauth'; message: string; eventId: string | null };

export interface WriteDecision {
  eventId: string | null;
  status: WriteStatus;
  lastError: string | null;
  attempts: number;
  /** null: nothing left to do. */
  nextAttemptAt: Date | null;
  retryNotBefore: Date | null;
}

export interface WriteRetryPolicy {
  /** First wait after a failed write (then doubled: 30 s, 1 min, 2 min …). */
  baseMs: number;
  capMs: number;
  random: () => number;
}

/**
 * The row after an attempt. A booking change that came in meanwhile (`changedMeanwhile`) leaves it due at once
 * (after any Retry-After), so the newer state is written next; a failure never blocks or fails the booking itself.
 */
export function decideAfterWrite(
  outcome: WriteOutcome,
  previous: { attempts: number; changedMeanwhile: boolean },
  now: Date,
  policy: WriteRetryPolicy,
): WriteDecision {
  const after = (ms: number) => new Date(now.getTime() + ms);
  const { eventId } = outcome;
  const attempts = previous.attempts + 1;
  switch (outcome.kind) {
    case 'done':
      return previous.changedMeanwhile
        ? { eventId, status: 'pending', lastError: null, attempts: 0, nextAttemptAt: now, retryNotBefore: null }
        : { eventId, status: 'synced', lastError: null, attempts: 0, nextAttemptAt: null, retryNotBefore: null };
    case 'retry_later': {
      const notBefore = after(outcome.delayMs);
      return { eventId, status: 'failed', lastError: outcome.message, attempts, nextAttemptAt: notBefore, retryNotBefore: notBefore };
    }
    case 'failed': {
      const next = previous.changedMeanwhile ? now : after(failureBackoffMs(attempts, policy.capMs, policy.random, policy.baseMs));
      return { eventId, status: 'failed', lastError: outcome.message, attempts, nextAttemptAt: next, retryNotBefore: null };
    }
    case 'reauth':
      // Still due, but not claimed while the connection needs re-authorization.
      return {
        eventId,
        status: 'pending',
        lastError: outcome.message,
        attempts: previous.attempts,
        nextAttemptAt: now,
        retryNotBefore: null,
      };
  }
}
