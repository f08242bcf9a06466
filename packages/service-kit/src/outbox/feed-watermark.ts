import type { FeedWatermark, StreamContract } from '@app/contracts';
import type pg from 'pg';
import { namedStatement } from '../db/statements.js';
import type { Bus } from '../nats/bus.js';

/**
 * The lowest transaction id an event of this outbox could still reach the stream with, read in one snapshot: the
 * snapshot's xmin (every transaction below it has ended) or the oldest pending row's, whichever is lower. A row whose
 * tx_id is below that was written by an ended transaction; if that committed, the row is visible here and not pending,
 * so it is published (the relay's claim commits only after JetStream acked every row it keeps marked) or set aside.
 * pg_current_snapshot() is the statement's own snapshot, the one the subquery reads the outbox in.
 */
const WATERMARK = `SELECT LEAST(pg_snapshot_xmin(pg_current_snapshot()),
    (SELECT min(tx_id) FROM outbox WHERE published_at IS NULL AND dead_at IS NULL))::text AS watermark`;

/**
 * A stream's change-feed watermark (docs/architecture.md, "The change feed"). `publish` reads it and, when it moved on
 * since the last one this process sent, publishes it on the stream: every event it covers was acked before it was read,
 * so each is in the stream before the watermark message. The webhooks service asks for it (the stream's watermark
 * request) while stored feed items wait for it; nothing is sent while nobody asks. Replicas may send the same value:
 * its Nats-Msg-Id is the value, so JetStream keeps one.
 */
export class StreamFeedWatermark {
  private sent = -1n;
  private served = false;
  private running: Promise<FeedWatermark> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly bus: Bus,
    private readonly stream: StreamContract,
  ) {}

  /** Answers the stream's watermark request (an endpoint of the service's NATS micro service), once per process. */
  async serve(): Promise<void> {
    if (this.served) return;
    this.served = true;
    await this.bus.serve(this.stream.watermark.request, () => this.publish());
  }

  /** Reads and publishes the watermark; calls that arrive while one runs share its answer. */
  publish(): Promise<FeedWatermark> {
    this.running ??= this.readAndSend().finally(() => (this.running = undefined));
    return this.running;
  }

  private async readAndSend(): Promise<FeedWatermark> {
    const { rows } = await this.pool.query<{ watermark: string }>(namedStatement(WATERMARK, []));
    const watermark = rows[0]?.watermark ?? '0';
    if (BigInt(watermark) > this.sent) {
      await this.bus.publish(this.stream.watermark.subject, { watermark }, `feed-watermark:${watermark}`);
      this.sent = BigInt(watermark);
    }
    return { watermark };
  }
}
