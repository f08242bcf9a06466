import type { HttpTimeouts } from './http/server-options.js';
import type { RetrySchedule } from './nats/retry-schedule.js';

/** How the retention sweep paces itself. */
export interface SweepCadence {
  /** Rows per DELETE statement. */
  batchSize: number;
  /** Pause between sweeps. */
  intervalMs: number;
}

/**
 * What every service runs with that no deployment sets: fixed here rather than read from the environment, so that
 * docs/configuration.md lists only what an operator decides. Tests that need other values (a timeout short enough
 * to wait out, a sweep that runs within the test) pass them to `startService` as `tuning`.
 */
export interface KitTuning {
  /** The limits every HTTP listener (API and metrics) puts on its clients. */
  httpTimeouts: HttpTimeouts;
  /** The backoff between deliveries of an event whose handling failed for a transient reason. */
  consumerRetry: RetrySchedule;
  /** The sweep of published outbox rows, old inbox rows and expired Idempotency-Keys. */
  retentionSweep: SweepCadence;
}

/**
 * The `minBatchGapMs` of consumers whose effect no one waits on to the millisecond (scheduling's projection of
 * bookings, calendar-sync's write-back): at 278 bookings/s their events came 3.6 ms apart, each applied in a
 * transaction of its own; 10 ms apart, batches take about three.
 */
export const UNHURRIED_BATCH_GAP_MS = 10;

/** Some fields of some parts of the kit's tuning; the rest keep their values of `KIT_TUNING`. */
export type KitTuningOverrides = { [Part in keyof KitTuning]?: Partial<KitTuning[Part]> };

export const KIT_TUNING: KitTuning = {
  httpTimeouts: {
    // Headers and body together: a trickled body cannot hold a connection, and 30 s still lets a 10 MB upload through
    // a link of about 3 Mbit/s. Past it: 408 REQUEST_TIMEOUT, and the connection is closed.
    requestTimeout: 30_000,
    // Headers are a few hundred bytes: a client still sending them after 10 s is holding the connection, not slow.
    headersTimeout: 10_000,
    // Above the 60 s idle timeout of the usual load balancers, so the balancer closes an idle connection first and
    // never sends a request on one this process has just closed (a 502 for the client).
    keepAliveTimeout: 72_000,
    // A connection on which nothing moves for a minute belongs to a client that went away: its socket is freed.
    connectionTimeout: 60_000,
  },
  // A transient failure (the database or NATS away) is usually over within a second, so the first redelivery comes
  // quickly; doubling to 30 s, an outage of hours costs each waiting event two deliveries a minute, and it is still
  // applied within 30 s of the end. Such an event is retried for as long as the failure lasts, never dead-lettered.
  consumerRetry: { initialMs: 250, maxMs: 30_000 },
  retentionSweep: {
    // 5000 rows take about 20 ms to delete (operations.md#retention, `npm run bench:retention`): far below the role's
    // 5 s statement_timeout, and short enough that the relay and consumers get the table between batches.
    batchSize: 5000,
    // Retention is counted in hours (24 h outbox, 8 days inbox): a sweep every 15 minutes keeps the tables within a
    // quarter-hour of it, and an idle sweep (a few ms) four times an hour costs nothing.
    intervalMs: 900_000,
  },
};

/** The kit's tuning with `overrides` in place of its values, field by field. */
export function kitTuning(overrides: KitTuningOverrides = {}): KitTuning {
  return {
    httpTimeouts: { ...KIT_TUNING.httpTimeouts, ...overrides.httpTimeouts },
    consumerRetry: { ...KIT_TUNING.consumerRetry, ...overrides.consumerRetry },
    retentionSweep: { ...KIT_TUNING.retentionSweep, ...overrides.retentionSweep },
  };
}
