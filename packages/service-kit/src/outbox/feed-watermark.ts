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
 * A stream's change-feed watermark (docs/architecture.md, "The change feed"), as the relay answers the stream's
 * watermark request: the watermark, then the stream's last sequence, read after it. Every event the watermark covers
 * was acked before the watermark was read, so it is in the stream at or before that sequence: once the feed has stored
 * the stream that far, no event of the stream below the watermark can still come. Nothing is written to the stream;
 * the webhooks service asks while stored feed items wait for it. The answer names the stream by its creation time: one
 * made again under its name (a new JetStream store) counts its sequences from 1 again.
 */
export class StreamFeedWatermark {
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
    await this.bus.serve(this.stream.watermark.request, () => this.read());
  }

  /** The watermark and the sequence it is good for; asks that arrive while one is read share its answer. */
  read(): Promise<FeedWatermark> {
    this.running ??= this.readBoth().finally(() => (this.running = undefined));
    return this.running;
  }

  private async readBoth(): Promise<FeedWatermark> {
    const { rows } = await this.pool.query<{ watermark: string }>(namedStatement(WATERMARK, []));
    const { state, created } = await this.bus.jsm.streams.info(this.bus.streamName(this.stream.name));
    return { watermark: rows[0]?.watermark ?? '0', sequence: state.last_seq, stream_created: created };
  }
}
