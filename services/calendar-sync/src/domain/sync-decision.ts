import type { ConnectionStatus } from '@app/contracts';
import { failureBackoffMs, regularIntervalMs } from './retry-policy.js';

/** What one sync attempt came to. */
export type SyncOutcome =
  /** At least the provider answered; `failedCalendars` could not be read (their last known windows are kept). */
  | { kind: 'read'; readCalendars: number; failedCalendars: { calendarId: string; error: string }[] }
  /** The refresh token was refused: nothing works until the user connects again. */
  | { kind: 'reauth'; message: string }
  /** The provider asked us to wait (429/503 with Retry-After). */
  | { kind: 'retry_later'; delayMs: number; message: string }
  | { kind: 'failed'; message: string };

export interface SyncDecision {
  status: ConnectionStatus;
  lastError: string | null;
  /** Only a sync that read every calendar moves `last_synced_at`. */
  lastSyncedAt: Date | undefined;
  /** null: polling stops. */
  nextSyncAt: Date | null;
  retryNotBefore: Date | null;
  consecutiveFailures: number;
  /** Publish `calendar.busy.updated` (fresh windows of the calendars read, last known ones of the others). */
  publish: boolean;
}

export interface SyncPolicy {
  intervalMs: number;
  random: () => number;
}

export function decideAfterSync(outcome: SyncOutcome, previousFailures: number, now: Date, policy: SyncPolicy): SyncDecision {
  const after = (ms: number) => new Date(now.getTime() + ms);
  const failures = previousFailures + 1;
  const backoff = () => after(failureBackoffMs(failures, policy.intervalMs, policy.random));
  switch (outcome.kind) {
    case 'read': {
      if (outcome.failedCalendars.length === 0) {
        const next = after(regularIntervalMs(policy.intervalMs, policy.random));
        return {
          status: 'active',
          lastError: null,
          lastSyncedAt: now,
          nextSyncAt: next,
          retryNotBefore: null,
          consecutiveFailures: 0,
          publish: true,
        };
      }
      const lastError = outcome.failedCalendars.map((f) => `calendar ${f.calendarId}: ${f.error}`).join('; ');
      return {
        status: 'error',
        lastError: `Could not read ${lastError}`,
        lastSyncedAt: undefined,
        nextSyncAt: backoff(),
        retryNotBefore: null,
        consecutiveFailures: failures,
        publish: outcome.readCalendars > 0,
      };
    }
    case 'reauth':
      return {
        status: 'reauth_required',
        lastError: outcome.message,
        lastSyncedAt: undefined,
        nextSyncAt: null,
        retryNotBefore: null,
        consecutiveFailures: failures,
        publish: false,
      };
    case 'retry_later':
      return {
        status: 'error',
        lastError: outcome.message,
        lastSyncedAt: undefined,
        nextSyncAt: after(outcome.delayMs),
        retryNotBefore: after(outcome.delayMs),
        consecutiveFailures: failures,
        publish: false,
      };
    case 'failed':
      return {
        status: 'error',
        lastError: outcome.message,
        lastSyncedAt: undefined,
        nextSyncAt: backoff(),
        retryNotBefore: null,
        consecutiveFailures: failures,
        publish: false,
      };
  }
}
