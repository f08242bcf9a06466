import { randomUUID } from 'node:crypto';
import type { JsMsg } from '@nats-io/jetstream';
import type { ReaderTopology } from '@app/contracts';
import {
  ArrivalQueue,
  isJetStreamApiError,
  JetStreamCode,
  readStreamInOrder,
  streamCreated,
  type BackgroundTask,
  type Bus,
} from '@app/service-kit';
import type pg from 'pg';
import {
  acquireStream,
  releaseStream,
  renewStream,
  restartStream,
  storeBatch,
  type NewFeedItem,
  type StreamProgress,
} from '../db/feed-ingest.repository.js';
import { feedPlacement, type EventPosition } from '../domain/feed-position.js';
import { feedMessageReader, type FeedEvent, type FeedMessage } from './feed-message.js';

/** How long a replica's hold on a stream lasts without renewal: another takes over a crashed one's after this. */
const LEASE_MS = 10_000;
/** How often a replica without the stream tries to take it. */
const TAKE_OVER_MS = 2_000;
/** The pause before the reader is opened again after it ended on its own. */
const REOPEN_MS = 200;

export interface FeedIngestDeps {
  bus: Bus;
  pool: pg.Pool;
  reader: ReaderTopology;
  /** The feed's frontier: told of each stored batch (it re-reads the watermarks), and asked whether a read waits on it. */
  feed: { stored(): void; demanded(): boolean };
  /**
   * While no read waits on the feed, how long arrived messages may wait for more before they are stored together
   * (`Tuning.feedLingerMs`); a read that starts waiting has what is held stored at once (`hurry`).
   */
  lingerMs: number;
  /** Counts each stored batch and its messages, by stream (`change_feed_stored_*_total` on /metrics). */
  countBatch?: (stream: string, messages: number) => void;
}

/**
 * Ingests one public stream into the change feed (docs/architecture.md, "The change feed"): one replica at a time (a
 * lease on the stream's feed_streams row), every message once and in stream order, from the stream sequence stored
 * after the last batch. Each batch commits its items and the stream's new sequence together, fenced by that lease and
 * sequence, so a restart or a takeover resumes exactly after what was stored: nothing is lost or stored twice (an event
 * published again has the id it had). An event goes where its Feed-Tx-Id and Feed-Seq put it, or after the stream's
 * watermark when that already passed it (feedPlacement). The watermark itself is raised by the frontier, from the
 * publishers' answers, once this has stored the stream as far as each answer says.
 */
export class FeedIngester implements BackgroundTask {
  private readonly holder = randomUUID();
  private readonly stream: string;
  private readonly read: (msg: JsMsg) => FeedMessage;
  private stopped = false;
  private running: Promise<void> | undefined;
  private interrupt = () => {};
  private releaseHeld = () => {};

  constructor(private readonly deps: FeedIngestDeps) {
    this.stream = deps.bus.streamName(deps.reader.stream.name);
    this.read = feedMessageReader(deps.reader.stream, (name) => deps.bus.subject(name));
  }

  async start(): Promise<void> {
    this.running = this.run();
  }

  /** A read waits on the feed: what this holds is stored now rather than at the end of its linger. */
  hurry(): void {
    this.releaseHeld();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt();
    await this.running;
    await releaseStream(this.deps.pool, this.stream, this.holder).catch(() => undefined);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        const progress = await acquireStream(this.deps.pool, this.stream, this.holder, LEASE_MS);
        if (progress) await this.ingest(progress);
        failures = 0;
        // Not held (another replica has it), or given up (taken over, the reader ended): look again in a while.
        await this.pause(progress ? REOPEN_MS : TAKE_OVER_MS);
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        const missing = isJetStreamApiError(error, JetStreamCode.StreamNotFound);
        // A stream its publisher has not made yet is no failure: the feed waits for it (and shows nothing meanwhile).
        if (!missing) this.deps.bus.log.warn({ err: error, stream: this.stream }, 'change feed ingestion failed; will retry');
        await this.pause(missing ? TAKE_OVER_MS : Math.min(10_000, 200 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  /**
   * Reads the stream from where `start` stands until the lease is lost, the reader fails, or the service stops. A stream
   * other than the one that progress was of (made again under its name, its sequences from 1 again) is read from its start.
   */
  private async ingest(start: StreamProgress): Promise<void> {
    const created = await streamCreated(this.deps.bus, this.deps.reader);
    let from = start.sequence;
    if (created !== start.created) {
      if (start.created !== null)
        this.deps.bus.log.warn(
          { stream: this.stream, was: start.created, now: created },
          'stream made again: the change feed reads it from its start',
        );
      if (!(await restartStream(this.deps.pool, this.stream, this.holder, created))) return;
      from = 0n;
    }
    const messages = await readStreamInOrder(this.deps.bus, this.deps.reader, from + 1n);
    const queue = new ArrivalQueue<JsMsg>(1024);
    let readFailure: unknown;
    const reading = (async () => {
      for await (const msg of messages) await queue.push(msg);
    })()
      .catch((error: unknown) => (readFailure = error))
      .finally(() => queue.end());
    const close = () => void messages.close().catch(() => undefined);
    this.interrupt = close;
    this.releaseHeld = () => queue.release();
    const linger = () => (this.deps.feed.demanded() ? 0 : this.deps.lingerMs);
    if (this.stopped) close(); // stopped while the reader was being opened
    const renewal = setInterval(() => {
      void renewStream(this.deps.pool, this.stream, this.holder, LEASE_MS).then(
        (held) => held || close(),
        () => undefined, // the next renewal or batch tries again; a lease that ran out meanwhile fails the batch
      );
      // A stream deleted and made again between two pulls can leave the reader waiting on the new stream for a sequence
      // the old one had reached, with no error: the stream's identity is looked at too, and a new one reopens the reader.
      void streamCreated(this.deps.bus, this.deps.reader).then(
        (now) => now === created || close(),
        () => close(), // gone (StreamNotFound) or unreachable: reopening finds out which
      );
    }, LEASE_MS / 3);
    try {
      let sequence = from;
      let first = true;
      for (let batch = await queue.takeAll(linger); batch.length > 0 && !this.stopped; batch = await queue.takeAll(linger)) {
        const read = this.batchAfter(sequence, batch, first);
        const place = (watermark: bigint) => read.events.map(({ event, position }) => feedItem(event, feedPlacement(position, watermark)));
        const batchOf = { stream: this.stream, holder: this.holder, from: sequence, to: read.to, place, leaseMs: LEASE_MS };
        if (!(await storeBatch(this.deps.pool, batchOf))) {
          this.deps.bus.log.info({ stream: this.stream }, 'change feed stream taken over by another replica');
          return;
        }
        sequence = read.to;
        first = false;
        this.deps.countBatch?.(this.stream, batch.length);
        this.deps.feed.stored();
      }
    } finally {
      clearInterval(renewal);
      close();
      await reading;
    }
    if (readFailure !== undefined && !this.stopped) throw readFailure;
  }

  /**
   * What a batch of messages holds: its public events with their positions, and the stream sequence after it. Messages
   * follow one another by stream sequence; the first after opening may skip ahead only when the stream no longer holds
   * the ones before (its retention), which is logged; any other gap reopens the reader.
   */
  private batchAfter(
    from: bigint,
    batch: JsMsg[],
    first: boolean,
  ): { to: bigint; events: { event: FeedEvent; position: EventPosition | null }[] } {
    let sequence = from;
    const events: { event: FeedEvent; position: EventPosition | null }[] = [];
    for (const [index, msg] of batch.entries()) {
      const seq = BigInt(msg.seq);
      if (seq !== sequence + 1n) {
        if (!(first && index === 0 && seq > sequence)) throw new Error(`stream ${this.stream}: message ${seq} after ${sequence}`);
        this.deps.bus.log.error(
          { stream: this.stream, from: String(sequence + 1n), to: String(seq - 1n) },
          'stream messages expired before the change feed stored them',
        );
      }
      sequence = seq;
      const message = this.read(msg);
      if (message.kind === 'event') events.push({ event: message.event, position: message.position });
      else if (message.why)
        this.deps.bus.log.warn({ stream: this.stream, seq: String(seq), why: message.why }, 'change feed skipped a message');
    }
    return { to: sequence, events };
  }

  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.interrupt = () => (clearTimeout(timer), resolve());
    });
  }
}

/** A feed item of `event` at `at` (its own position, or where a late event was placed). */
function feedItem(event: FeedEvent, at: EventPosition): NewFeedItem {
  return {
    id: event.id,
    organization_id: event.organizationId,
    position_tx: String(at.tx),
    position_seq: String(at.seq),
    type: event.type,
    occurred_at: event.occurredAt,
    data: event.data,
    previous_attributes: event.previousAttributes,
  };
}
