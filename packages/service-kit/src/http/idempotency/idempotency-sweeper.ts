import type { FastifyBaseLogger } from 'fastify';
import { PollingLoop } from '../../runtime/polling-loop.js';
import type { BackgroundTask } from '../../runtime/service.js';
import type { IdempotencyStore } from './idempotency.store.js';

const SWEEP_EVERY_MS = 15 * 60 * 1000;
const BATCH = 1000;

/**
 * Deletes Idempotency-Key records past their 24 hours, in every service (startService runs it). Expired records
 * are already ignored when read and taken over when a key is reused, so this only keeps the table small.
 */
export class IdempotencySweeper implements BackgroundTask {
  private readonly loop = new PollingLoop(() => this.tick());

  constructor(
    private readonly store: IdempotencyStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Deletes every expired record, a batch at a time (short statements, no long lock); returns how many. */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.store.deleteExpired(BATCH);
      deleted += batch;
      if (batch < BATCH) return deleted;
    }
  }

  private async tick(): Promise<number> {
    try {
      const deleted = await this.sweep();
      if (deleted > 0) this.log.info({ deleted }, 'expired idempotency keys deleted');
    } catch (error) {
      this.log.warn({ err: error }, 'idempotency key sweep failed; will retry');
    }
    return SWEEP_EVERY_MS;
  }
}
