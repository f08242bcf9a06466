import { FEED_POSITION_HEADERS, type StreamContract } from '@app/contracts';
import type pg from 'pg';
import { withTransaction } from '../db/transaction.js';
import type { Bus } from '../nats/bus.js';
import { ensureDeadLetterStream, sendOutboxDeadLetter } from '../nats/dead-letter.js';
import { OUTBOX_DEAD_LETTERS } from '../nats/dead-letter-naming.js';
import { PollingLoop } from '../workers/polling-loop.js';
import { inSpan, natsAttributes, SpanKind } from '../telemetry/spans.js';
import { contextOfStored } from '../telemetry/trace-context.js';
import { StreamFeedWatermark } from './feed-watermark.js';
import { claimFairBatch, markFailures, type ClaimedRow, type RowFailure } from './relay-claim.js';
import { publishFailureKind } from './publish-failure.js';

/** A row the broker refused this many times (for a reason of its own, not an outage) is set aside. */
const MAX_REFUSALS = 5;
/**
 * Batches start at least this far apart. Under a steady write load each write woke the relay for a batch of its own
 * (a transaction, a publish and its ack, each consumer's delivery and transaction downstream); so they go several to a
 * batch, for at most this much more latency, while a write after a quiet spell still leaves at once. A backlog still
 * drains at up to a batch (100 rows) per gap.
 */
const RELAY_MIN_GAP_MS = 5;

export interface RelayOptions {
  pool: pg.Pool;
  bus: Bus;
  stream: StreamContract;
  batchSize?: number;
  /** How often the relay looks for rows written by other replicas or left by a failure. */
  pollMs?: number;
  /** How far apart batches start at least (RELAY_MIN_GAP_MS unless a test gives its own). */
  minGapMs?: number;
}

/**
 * Publishes outbox rows to JetStream. Rows are claimed with FOR UPDATE SKIP LOCKED, so replicas never publish one
 * row at the same time; msgID = event id deduplicates a re-publish after a crash between publish and mark.
 * Organizations take turns (claimFairBatch): each one's events leave in the order they were written, and one
 * organization's burst cannot hold back another's. No row can block the others: while NATS is down the batch is
 * retried with backoff, but a row the broker refuses for good (too large) or again and again is set aside at once
 * (dead_at, and a dead letter on the service's dead-letter stream, where `npm run dlq` lists and replays it).
 * Each event carries its change-feed position (FEED_POSITION_HEADERS), and the relay answers the stream's
 * watermark request (feed-watermark.ts).
 */
export class OutboxRelay {
  private readonly loop: PollingLoop;
  private readonly watermark: StreamFeedWatermark;
  private failures = 0;
  /** Where the last full turn of organizations ended: the next batch starts after it, so every one gets its turn. */
  private resumeAfter: string | null = null;

  constructor(private readonly options: RelayOptions) {
    this.loop = new PollingLoop(() => this.tick(), { minGapMs: options.minGapMs ?? RELAY_MIN_GAP_MS });
    this.watermark = new StreamFeedWatermark(options.pool, options.bus, options.stream);
  }

  async start(): Promise<void> {
    await this.options.bus.ensureStream(this.options.stream);
    await ensureDeadLetterStream(this.options.bus);
    await this.watermark.serve();
    this.loop.start();
  }

  /** Called after a write commits, so events leave at once rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One batch; returns how long to wait before the next (0 while rows were found: more may be waiting). */
  private async tick(): Promise<number> {
    const started = performance.now();
    const outcome = await this.publishBatch().catch((failure: unknown) => ({ claimed: 0, published: 0, failure, outage: true }));
    // An empty poll is not a batch: only batches that published or failed are timed.
    if (outcome.claimed > 0 || outcome.failure !== undefined)
      this.options.bus.metrics?.observeRelayBatch(outcome.published, outcome.failure !== undefined, (performance.now() - started) / 1000);
    if (!outcome.outage) {
      this.failures = 0;
      return outcome.claimed > 0 ? 0 : (this.options.pollMs ?? 1000);
    }
    this.failures += 1;
    const delay = Math.min(10_000, 200 * 2 ** Math.min(this.failures, 6));
    this.options.bus.log.warn({ err: outcome.failure, retry_in_ms: delay }, 'outbox relay could not publish; will retry');
    return delay;
  }

  /**
   * Publishes one batch inside one transaction: the rows are claimed and marked published in one statement, and a
   * row whose publish fails is unmarked again (or set aside) before the commit. The messages go out together, in
   * outbox order (the client writes them in order, so the stream keeps each organization's), and their acks are
   * awaited together. Each row gets a publish span of its own, child of the write that recorded it. `outage` says
   * the broker itself was away (no answer, no connection): only that backs the whole relay off.
   */
  async publishBatch(): Promise<{ claimed: number; published: number; failure?: unknown; outage: boolean }> {
    const { pool, bus } = this.options;
    const batchSize = this.options.batchSize ?? 100;
    return withTransaction(pool, async (tx) => {
      const batch = await claimFairBatch(tx, batchSize, this.resumeAfter);
      this.resumeAfter = batch.resumeAfter;
      const outcomes = await Promise.allSettled(batch.rows.map((row) => publishRow(bus, row)));
      const failures: RowFailure[] = [];
      let outage: unknown;
      for (const [index, outcome] of outcomes.entries()) {
        const row = batch.rows[index];
        if (outcome.status === 'fulfilled' || !row) continue;
        const kind = publishFailureKind(outcome.reason);
        if (kind === 'outage') {
          outage ??= outcome.reason;
          failures.push({ row, error: outcome.reason, deadLetter: false, counted: false });
          continue;
        }
        const reason = kind === 'too_large' ? 'too_large' : row.attempts + 1 >= MAX_REFUSALS ? 'refused' : undefined;
        const deadLetter = reason !== undefined && (await this.deadLetter(row, reason, outcome.reason));
        failures.push({ row, error: outcome.reason, deadLetter, counted: true });
      }
      await markFailures(tx, failures);
      const failure = failures[0]?.error;
      return { claimed: batch.rows.length, published: batch.rows.length - failures.length, failure, outage: outage !== undefined };
    });
  }

  /** Names the row on the dead-letter stream; false when that failed too (the row then stays pending). */
  private async deadLetter(row: ClaimedRow, reason: 'too_large' | 'refused', error: unknown): Promise<boolean> {
    const { bus, stream } = this.options;
    try {
      await sendOutboxDeadLetter(bus, {
        ...row,
        payload: JSON.stringify(row.payload),
        attempts: row.attempts + 1,
        reason,
        error,
        stream: stream.name,
      });
    } catch (failure) {
      bus.log.warn({ err: failure, event_id: row.id }, 'outbox relay could not dead-letter an event; will retry');
      return false;
    }
    bus.metrics?.countDeadLetter(OUTBOX_DEAD_LETTERS, row.subject);
    bus.log.error({ err: error, event_id: row.id, subject: row.subject, reason }, 'outbox event set aside as a dead letter');
    return true;
  }
}

function publishRow(bus: Bus, row: ClaimedRow): Promise<void> {
  const attributes = natsAttributes(row.subject, { 'messaging.operation.type': 'send', 'messaging.message.id': row.id });
  const position: Record<string, string> =
    row.tx_id === null ? {} : { [FEED_POSITION_HEADERS.transaction]: row.tx_id, [FEED_POSITION_HEADERS.sequence]: row.seq };
  return inSpan(`publish ${row.subject}`, { kind: SpanKind.PRODUCER, attributes, parent: contextOfStored(row) }, () =>
    bus.publish(row.subject, row.payload, row.id, position),
  );
}
