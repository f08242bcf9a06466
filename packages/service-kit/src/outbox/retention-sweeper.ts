import type { FastifyBaseLogger } from 'fastify';
import type { BaseConfig } from '../config.js';
import type { SweepCadence } from '../tuning.js';
import { namedStatement } from '../db/statements.js';
import type { Queryable } from '../db/sql.js';
import type { IdempotencyStore } from '../http/idempotency/idempotency.store.js';
import { PollingLoop } from '../workers/polling-loop.js';
import type { BackgroundTask } from '../workers/background-task.js';

export interface RetentionOptions {
  /** Published outbox rows older than this (by published_at) are deleted; unpublished rows never are. */
  outboxRetentionHours: number;
  /** Inbox rows older than this (by processed_at) are deleted. */
  inboxRetentionHours: number;
  /** Rows per DELETE statement. */
  batchSize: number;
  /** Pause between sweeps. */
  intervalMs: number;
}

/** Rows of a service's own table that the sweep deletes beside the kit's (the change feed's items, say). */
export interface RetainedRows {
  /** The table's name, in the sweep's result and log. */
  name: string;
  /** Deletes up to `batchSize` of its rows past their retention, the oldest first (one short statement); how many. */
  deleteExpired(db: Queryable, batchSize: number): Promise<number>;
}

/** What one sweep did. */
export interface SweepResult {
  outbox: number;
  inbox: number;
  /** Idempotency-Key records past their 24 hours (already ignored when read: this keeps the table small). */
  idempotencyKeys: number;
  /** Rows deleted from each of the service's own tables (`RetainedRows`), by name. */
  tables: Record<string, number>;
  /** DELETE statements run (the last of each table finds fewer rows than a batch). */
  batches: number;
  slowestBatchMs: number;
}

/** The config's retention, swept at the tuning's pace (`KIT_TUNING.retentionSweep`). */
export function retentionOf(
  config: Pick<BaseConfig, 'OUTBOX_RETENTION_HOURS' | 'INBOX_RETENTION_HOURS'>,
  cadence: SweepCadence,
): RetentionOptions {
  return {
    outboxRetentionHours: config.OUTBOX_RETENTION_HOURS,
    inboxRetentionHours: config.INBOX_RETENTION_HOURS,
    batchSize: cadence.batchSize,
    intervalMs: cadence.intervalMs,
  };
}

// Each statement takes the oldest rows from the index of migration 0004 (ORDER BY makes the planner walk it rather
// than scan the table, whose first pages fill with the dead rows of earlier batches), then deletes them by ctid.
// Replicas sweep at once: a batch that meets rows another replica's batch is deleting waits for it (milliseconds),
// finds them gone and deletes fewer than a batch, which ends its sweep. (Locking the rows first, FOR UPDATE SKIP
// LOCKED, writes every row twice: it measured slower on 1M rows, for a contention that costs milliseconds.) The outer
// condition repeats the inner one: a row is deleted only if it is published and old when it is deleted.
const SWEEP_OUTBOX = `DELETE FROM outbox WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM outbox WHERE published_at < now() - make_interval(hours => $1::int)
     ORDER BY published_at LIMIT $2))
  AND published_at < now() - make_interval(hours => $1::int)`;
const SWEEP_INBOX = `DELETE FROM inbox WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM inbox WHERE processed_at < now() - make_interval(hours => $1::int)
     ORDER BY processed_at LIMIT $2))
  AND processed_at < now() - make_interval(hours => $1::int)`;

/**
 * Deletes published outbox rows and inbox rows past their retention, expired Idempotency-Key records, and the rows of
 * the service's own tables it names (`Built.retention`), in every service (startService runs it), a batch per statement: each is short (milliseconds for thousands of rows, far below the role's statement_timeout),
 * holds no lock beyond its rows and leaves room for the relay and consumers between batches.
 */
export class RetentionSweeper implements BackgroundTask {
  private readonly loop = new PollingLoop(() => this.tick());

  constructor(
    private readonly db: Queryable,
    private readonly options: RetentionOptions,
    private readonly log: FastifyBaseLogger,
    private readonly idempotency?: IdempotencyStore,
    private readonly tables: readonly RetainedRows[] = [],
  ) {}

  async start(): Promise<void> {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Deletes every row past its retention, a batch at a time. */
  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { outbox: 0, inbox: 0, idempotencyKeys: 0, tables: {}, batches: 0, slowestBatchMs: 0 };
    const { batchSize } = this.options;
    const batchOf = (statement: string, hours: number) => async () =>
      (await this.db.query(namedStatement(statement, [hours, batchSize]))).rowCount ?? 0;
    result.outbox = await this.sweepInBatches(batchOf(SWEEP_OUTBOX, this.options.outboxRetentionHours), result);
    result.inbox = await this.sweepInBatches(batchOf(SWEEP_INBOX, this.options.inboxRetentionHours), result);
    const idempotency = this.idempotency;
    if (idempotency) result.idempotencyKeys = await this.sweepInBatches(() => idempotency.deleteExpired(batchSize), result);
    for (const table of this.tables) {
      result.tables[table.name] = await this.sweepInBatches(() => table.deleteExpired(this.db, batchSize), result);
    }
    return result;
  }

  /** Runs `batch` until it deletes fewer rows than a batch; counts the statements and the slowest one in `result`. */
  private async sweepInBatches(batch: () => Promise<number>, result: SweepResult): Promise<number> {
    let deleted = 0;
    for (;;) {
      const started = performance.now();
      const rows = await batch();
      result.batches += 1;
      result.slowestBatchMs = Math.max(result.slowestBatchMs, performance.now() - started);
      deleted += rows;
      if (rows < this.options.batchSize) return deleted;
    }
  }

  private async tick(): Promise<number> {
    try {
      const result = await this.sweep();
      const own = Object.values(result.tables).reduce((sum, rows) => sum + rows, 0);
      if (result.outbox + result.inbox + result.idempotencyKeys + own > 0)
        this.log.info({ ...result, slowestBatchMs: Math.round(result.slowestBatchMs) }, 'retention sweep');
    } catch (error) {
      this.log.warn({ err: error }, 'retention sweep failed; will retry');
    }
    return this.options.intervalMs;
  }
}
