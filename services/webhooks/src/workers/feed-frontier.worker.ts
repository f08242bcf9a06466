import type { FeedWatermark, StreamContract } from '@app/contracts';
import { PollingLoop, type BackgroundTask, type Bus } from '@app/service-kit';
import type pg from 'pg';
import { askForWatermarks } from '../clients/feed-watermark.client.js';
import { applyWatermark } from '../db/feed-ingest.repository.js';
import { readStreamMarks, type StreamMark } from '../db/feed.repository.js';

/** While requests wait: how often the frontier is re-read (another replica's ingestion moves it too). */
const WAITING_POLL_MS = 100;
/** While stored items wait for watermarks: how often to ask again when no answer has moved the frontier. */
const ASK_AGAIN_MS = 250;
/** At most this often while a read waits on the frontier (a long poll, or a read catching up to its horizon). */
const MIN_ASK_GAP_MS = 20;
/**
 * At most this often while no read waits: stored items still move the frontier on, but no faster than anyone looks.
 * Each ask costs every lagging publisher a statement and a JetStream stream-info request, and under a steady write load
 * items always wait: at 50 asks a second that was 0.2 ms of CPU per booking in each quiet service (catalog, events),
 * more in NATS, at 218 bookings/s. A read that then comes asks at once (catchUp), as one after a quiet spell does.
 */
const UNREAD_ASK_GAP_MS = 1000;
const IDLE_POLL_MS = 1000;

/** What a long-polling request needs of the frontier: has it moved since `generation`, or wait until it does. */
export interface FeedWaits {
  generation(): number;
  /**
   * Resolves when the frontier moved past `since` (true: worth reading again), or with false at `until` (epoch ms),
   * on `signal` (the client went away) or when the service closes.
   */
  changed(since: number, until: number, signal: AbortSignal): Promise<boolean>;
  /** Lets every waiting request answer now, and those that come later at once (the service is closing). */
  release(): void;
  /**
   * A read at the head of the feed wants every change that had committed before it: asks the streams whose watermark is
   * below `horizon` for a newer one (for a few seconds at most; `changed` tells when the frontier moves).
   */
  catchUp(horizon: bigint): void;
}

/** Answers kept per stream while its ingester catches up to them. */
const MAX_PENDING = 16;
/** How long a read's catch-up keeps the frontier asking, when the streams cannot reach its horizon (a long transaction). */
const CATCH_UP_MS = 2000;

/**
 * The change feed's frontier on this replica (docs/architecture.md, "The change feed"): it re-reads the streams'
 * watermarks, while a read waits on it after each batch an ingester stores and every 100 ms (every 250 ms to 1 s while
 * none does), wakes the waiting requests when the frontier moves, and while stored items are at or above it (or a
 * read catches up to its horizon) asks the publishers of the lagging streams for their watermarks, at its readers'
 * pace (MIN_ASK_GAP_MS, UNREAD_ASK_GAP_MS). Each answer is stored once the stream's ingester has stored
 * the stream as far as the answer's sequence (at once, or at a later tick while it is kept pending here).
 */
export class FeedFrontier implements BackgroundTask, FeedWaits {
  private readonly loop = new PollingLoop(() => this.tick());
  private readonly names: string[];
  private frontier = -1n;
  private moves = 0;
  private readonly waiters = new Set<() => void>();
  private closing = false;
  private asking = false;
  private lastAsk = 0;
  /** Per stream, answers not stored yet (its ingester had not read that far), the newest last. */
  private readonly pending = new Map<string, FeedWatermark[]>();
  /** The highest horizon a read is catching up to, and until when it is asked for. */
  private wanted: { horizon: bigint; until: number } | null = null;
  /** Called whenever a read starts waiting on the frontier (the ingesters then store what they hold at once). */
  private readonly demandListeners = new Set<() => void>();

  constructor(private readonly deps: { pool: pg.Pool; bus: Bus; streams: readonly StreamContract[] }) {
    this.names = deps.streams.map((stream) => deps.bus.streamName(stream.name));
  }

  /** The streams' names as feed_streams keys them (with the NATS prefix). */
  get streamNames(): readonly string[] {
    return this.names;
  }

  async start(): Promise<void> {
    this.closing = false;
    this.loop.start();
  }

  /** Lets every waiting request answer now, and those that come later at once (the service is closing). */
  release(): void {
    this.closing = true;
    for (const wake of [...this.waiters]) wake();
  }

  async stop(): Promise<void> {
    this.release();
    await this.loop.stop();
  }

  /**
   * An ingester stored a batch: the frontier may have moved, or items may wait for watermarks. Re-read at once only
   * while a read waits on it; otherwise the next poll does (at most ASK_AGAIN_MS later), since no one looks meanwhile.
   */
  stored(): void {
    if (this.demanded()) this.loop.wake();
  }

  /** True while a read waits on the frontier: a long poll, or a read catching up to its horizon. */
  demanded(): boolean {
    return this.waiters.size > 0 || this.wanted !== null;
  }

  /** `listener` is called whenever a read starts waiting on the frontier. */
  onDemand(listener: () => void): void {
    this.demandListeners.add(listener);
  }

  generation(): number {
    return this.moves;
  }

  catchUp(horizon: bigint): void {
    if (horizon <= this.frontier) return;
    const until = Date.now() + CATCH_UP_MS;
    this.wanted = { horizon: this.wanted && this.wanted.horizon > horizon ? this.wanted.horizon : horizon, until };
    this.demand();
  }

  changed(since: number, until: number, signal: AbortSignal): Promise<boolean> {
    if (this.moves !== since) return Promise.resolve(true);
    if (this.closing || signal.aborted || Date.now() >= until) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve(this.moves !== since && !this.closing);
      };
      const timer = setTimeout(done, until - Date.now());
      signal.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
      this.demand(); // poll at the waiting pace from now on
    });
  }

  private demand(): void {
    for (const listener of this.demandListeners) listener();
    this.loop.wake();
  }

  private async tick(): Promise<number> {
    let waitFor = false;
    try {
      let marks = await readStreamMarks(this.deps.pool, this.names);
      if (await this.applyPending(marks)) marks = await readStreamMarks(this.deps.pool, this.names);
      const complete = marks.length === this.names.length;
      const frontier = complete
        ? marks.reduce((low, mark) => (mark.watermark < low ? mark.watermark : low), marks[0]?.watermark ?? 0n)
        : 0n;
      if (frontier !== this.frontier) {
        this.frontier = frontier;
        this.moves += 1;
        for (const wake of [...this.waiters]) wake();
      }
      if (this.wanted && (this.wanted.horizon <= frontier || Date.now() > this.wanted.until)) this.wanted = null;
      // Stored items at or above the frontier, and reads catching up to their horizon, wait for the streams whose
      // watermark is not past them yet.
      const highest = marks.reduce((high, mark) => (mark.highWater > high ? mark.highWater : high), 0n);
      const stored = highest > 0n && highest >= frontier ? highest + 1n : 0n;
      const needed = this.wanted && this.wanted.horizon > stored ? this.wanted.horizon : stored;
      if (needed > frontier) {
        const known = new Map(marks.map((mark) => [mark.stream, mark.watermark] as const));
        const lagging = this.deps.streams.filter((_, index) => (known.get(this.names[index] ?? '') ?? 0n) < needed);
        waitFor = lagging.length > 0;
        if (waitFor) this.ask(lagging, this.demanded() ? MIN_ASK_GAP_MS : UNREAD_ASK_GAP_MS);
      }
    } catch (error) {
      this.deps.bus.log.warn({ err: error }, 'change feed frontier could not be read; will retry');
    }
    if (this.waiters.size > 0) return WAITING_POLL_MS;
    return waitFor ? ASK_AGAIN_MS : IDLE_POLL_MS;
  }

  /** One ask at a time, at most every `gapMs`; its answers wait in `pending` for the next tick, woken now. */
  private ask(lagging: readonly StreamContract[], gapMs: number): void {
    if (this.asking || Date.now() - this.lastAsk < gapMs) return;
    this.asking = true;
    this.lastAsk = Date.now();
    void askForWatermarks(this.deps.bus, lagging)
      .then((answers) => {
        for (const [stream, answer] of answers) {
          const name = this.deps.bus.streamName(stream.name);
          // Older answers stay too: a newer one may need more of the stream than its ingester has stored yet.
          this.pending.set(name, [...(this.pending.get(name) ?? []), answer].slice(-MAX_PENDING));
        }
      })
      .finally(() => {
        this.asking = false;
        this.loop.wake();
      });
  }

  /**
   * Stores, per stream, the highest pending watermark whose sequence its ingester has reached (the store checks it
   * again), and forgets the answers it covers; true when one was stored.
   */
  private async applyPending(marks: readonly StreamMark[]): Promise<boolean> {
    let stored = false;
    for (const mark of marks) {
      // An answer of another stream of the name (one since made again, or not opened yet) can vouch for nothing here.
      const answers = (this.pending.get(mark.stream) ?? []).filter((answer) => answer.stream_created === mark.created);
      const reached = answers.filter((answer) => BigInt(answer.sequence) <= mark.sequence);
      const best = reached.reduce<FeedWatermark | undefined>(
        (high, answer) => (!high || BigInt(answer.watermark) > BigInt(high.watermark) ? answer : high),
        undefined,
      );
      if (!best) continue;
      const watermark = BigInt(best.watermark);
      const answer = { watermark, sequence: best.sequence, created: best.stream_created };
      if (watermark > mark.watermark && (await applyWatermark(this.deps.pool, mark.stream, answer))) stored = true;
      this.pending.set(
        mark.stream,
        answers.filter((answer) => BigInt(answer.watermark) > watermark),
      );
    }
    return stored;
  }
}
