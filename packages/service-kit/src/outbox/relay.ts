import type { StreamContract } from '@app/contracts';
import type pg from 'pg';
import { namedStatement } from '../db/statements.js';
import { withTransaction } from '../db/transaction.js';
import type { Bus } from '../nats/bus.js';
import { PollingLoop } from '../runtime/polling-loop.js';
import { inSpan, natsAttributes, SpanKind } from '../telemetry/spans.js';
import { contextOfStored, type StoredTraceContext } from '../telemetry/trace-context.js';

interface PendingRow extends StoredTraceContext {
  id: string;
  subject: string;
  payload: unknown;
}

export interface RelayOptions {
  pool: pg.Pool;
  bus: Bus;
  stream: StreamContract;
  batchSize?: number;
  /** How often the relay looks for rows written by other replicas or left by a failure. */
  pollMs?: number;
}

/**
 * Publishes outbox rows to JetStream in order. Rows are claimed with FOR UPDATE SKIP LOCKED, so replicas
 * never publish one row at the same time; msgID = event id deduplicates a re-publish after a crash
 * between publish and mark. While NATS is down the batch rolls back and is retried with backoff.
 */
export class OutboxRelay {
  private readonly loop = new PollingLoop(() => this.tick());
  private failures = 0;

  constructor(private readonly options: RelayOptions) {}

  async start(): Promise<void> {
    await this.options.bus.ensureStream(this.options.stream);
    this.loop.start();
  }

  /** Called after a write commits, so events leave at once rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One batch; returns how long to wait before the next (0 while a full batch suggests more are waiting). */
  private async tick(): Promise<number> {
    const started = performance.now();
    const outcome = await this.publishBatch().catch((failure: unknown) => ({ published: 0, failure }));
    // An empty poll is not a batch: only batches that published or failed are timed.
    if (outcome.published > 0 || outcome.failure !== undefined)
      this.options.bus.metrics?.observeRelayBatch(outcome.published, outcome.failure !== undefined, (performance.now() - started) / 1000);
    if (outcome.failure === undefined) {
      this.failures = 0;
      return outcome.published === (this.options.batchSize ?? 100) ? 0 : (this.options.pollMs ?? 1000);
    }
    this.failures += 1;
    const delay = Math.min(10_000, 200 * 2 ** Math.min(this.failures, 6));
    this.options.bus.log.warn({ err: outcome.failure, retry_in_ms: delay }, 'outbox relay could not publish; will retry');
    return delay;
  }

  /**
   * Publishes one batch inside one transaction. Its rows are claimed and marked published in one statement (the
   * success path is one round trip besides BEGIN and COMMIT); a row whose publish fails is unmarked again before
   * the commit. The messages go out together, in outbox order (the client writes them in order, so the stream
   * keeps it), and their acks are awaited together. A failure stops the batch but still commits what was
   * acknowledged (and the failed rows' attempts), so it is reported rather than thrown. Each row gets a publish span
   * of its own, child of the write that recorded it (the batch is no one request's): its traceparent goes out in the
   * message headers, for the consumers.
   */
  async publishBatch(): Promise<{ published: number; failure?: unknown }> {
    const { pool, bus } = this.options;
    return withTransaction(pool, async (tx) => {
      const { rows: claimed } = await tx.query<PendingRow & { seq: string }>(
        namedStatement(
          `UPDATE outbox SET published_at = now() WHERE id IN (
             SELECT id FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id::text AS id, seq::text AS seq, subject, payload, traceparent, tracestate`,
          [this.options.batchSize ?? 100],
        ),
      );
      // RETURNING keeps no order: the stream must get the outbox's.
      const rows = claimed.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
      const outcomes = await Promise.allSettled(rows.map((row) => publishRow(bus, row)));
      const failed = rows.filter((_, index) => outcomes[index]?.status === 'rejected');
      const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')?.reason;
      if (failed.length > 0) {
        await tx.query('UPDATE outbox SET published_at = NULL, attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])', [
          failed.map((row) => row.id),
          String(failure),
        ]);
      }
      return { published: rows.length - failed.length, failure };
    });
  }
}

function publishRow(bus: Bus, row: PendingRow): Promise<void> {
  const attributes = natsAttributes(row.subject, { 'messaging.operation.type': 'send', 'messaging.message.id': row.id });
  return inSpan(`publish ${row.subject}`, { kind: SpanKind.PRODUCER, attributes, parent: contextOfStored(row) }, () =>
    bus.publish(row.subject, row.payload, row.id),
  );
}
