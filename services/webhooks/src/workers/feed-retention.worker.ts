import { PollingLoop, type BackgroundTask } from '@app/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { sweepFeedItems } from '../db/feed-ingest.repository.js';

/**
 * How long the change feed keeps an item after storing it: API.md promises at least 30 days, and an item is stored
 * after its event occurred, so a day more covers clocks and a stream that was read late.
 */
export const FEED_RETENTION_DAYS = 31;
const SWEEP_EVERY_MS = 3_600_000;
const BATCH = 5000;

/** Deletes the feed's items past their retention, the oldest first, a batch per statement (hourly, and at start). */
export class FeedRetention implements BackgroundTask {
  private readonly loop = new PollingLoop(() => this.tick());

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async tick(): Promise<number> {
    try {
      let deleted = 0;
      for (let batch = BATCH; batch === BATCH; deleted += batch) batch = await sweepFeedItems(this.pool, FEED_RETENTION_DAYS, BATCH);
      if (deleted > 0) this.log.info({ deleted }, 'change feed retention sweep');
    } catch (error) {
      this.log.warn({ err: error }, 'change feed retention sweep failed; will retry');
    }
    return SWEEP_EVERY_MS;
  }
}
