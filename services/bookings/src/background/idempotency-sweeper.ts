import type { BackgroundTask } from '@app/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { deleteExpiredKeys } from '../db/idempotency.repository.js';

const SWEEP_EVERY_MS = 15 * 60 * 1000;

/**
 * Deletes Idempotency-Key entries past their 24 hours. Expired entries are already ignored when read
 * (and taken over when a key is reused), so this only keeps the table small.
 */
export class IdempotencySweeper implements BackgroundTask {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    try {
      const deleted = await deleteExpiredKeys(this.db);
      if (deleted > 0) this.log.info({ deleted }, 'expired idempotency keys deleted');
      return deleted;
    } catch (error) {
      this.log.warn({ err: error }, 'idempotency key sweep failed; will retry');
      return 0;
    }
  }
}
