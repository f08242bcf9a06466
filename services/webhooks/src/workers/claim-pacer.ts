/** How the pacer reacts; the defaults suit every deployment measured so far, so they are not configuration. */
export interface ClaimPacerOptions {
  /** The fewest attempts in flight: deliveries slow down under load, never stop (the delivery loop's: `deliveryPacer`). */
  min: number;
  /** Recent claims slower than this many times the quiet-time latency mean the database or the machine is busy… */
  tolerance: number;
  /** …and at least this many ms slower: sub-millisecond claims vary by more than `tolerance` with no load at all. */
  marginMs: number;
  /** Deliveries yield only while new ones are being written (the writes they must not slow), up to this long after one. */
  writesWithinMs: number;
  /** Weight of the newest claim in the recent latency (an exponential moving average): one slow claim is no load. */
  smoothing: number;
  /** How far back the quiet-time latency is looked for: a load lasting longer becomes the new normal. */
  windowMs: number;
}

const DEFAULTS: ClaimPacerOptions = { min: 1, tolerance: 2, marginMs: 1, smoothing: 0.2, writesWithinMs: 1000, windowMs: 30_000 };

/**
 * Deliveries yield to the writes that cause them. They share Postgres, and often the machine, with the booking path,
 * and they can wait where a booking cannot: during a burst that saturates either, deliveries at full concurrency slow
 * the very writes they report on (5 endpoints took a 2-core machine's booking rate down by a quarter). Each claim's
 * round trip tells how busy both are. While bookings are being written (`noteWrite` within `writesWithinMs`) and the
 * recent claim latency is above `tolerance` times the quiet-time latency (the lowest of the last `windowMs`), and
 * `marginMs` more, the limit of attempts in flight shrinks by a quarter per claim, down to `min`; otherwise it grows
 * by one per claim, back to `max`. Once the writes stop, the backlog drains at full concurrency. The wait is bounded:
 * a load lasting longer than the window becomes the quiet-time latency itself, and the limit opens again.
 */
export class ClaimPacer {
  private current: number;
  private recent: number | undefined;
  private lastWriteAt = -Infinity;
  /** Claim latencies of the window, oldest first, each lower than all after it: the first is the window's lowest. */
  private readonly lowest: { at: number; ms: number }[] = [];
  private readonly options: ClaimPacerOptions;

  constructor(
    private readonly max: number,
    options: Partial<ClaimPacerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.current = max;
  }

  /** Attempts that may be in flight now. */
  get limit(): number {
    return this.current;
  }

  /** Deliveries were just written (a domain event fanned out): the write path is at work. */
  noteWrite(now: number): void {
    this.lastWriteAt = now;
  }

  /** One claim took `ms` (at `now`, in ms since the epoch). */
  observe(ms: number, now: number): void {
    while (this.lowest.length > 0 && this.lowest[this.lowest.length - 1]!.ms >= ms) this.lowest.pop();
    this.lowest.push({ at: now, ms });
    while (this.lowest[0]!.at < now - this.options.windowMs) this.lowest.shift();
    const quiet = this.lowest[0]!.ms;
    const { smoothing, tolerance, marginMs, min, writesWithinMs } = this.options;
    const recent = (this.recent = this.recent === undefined ? ms : this.recent + smoothing * (ms - this.recent));
    const busy = recent > quiet * tolerance && recent > quiet + marginMs && now - this.lastWriteAt <= writesWithinMs;
    this.current = busy ? Math.max(min, Math.floor(this.current * 0.75)) : Math.min(this.max, this.current + 1);
  }
}
