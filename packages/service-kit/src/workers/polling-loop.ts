import { outsideAnyTrace } from '../telemetry/trace-context.js';

/**
 * Runs `tick` over and over, never two at once. After a run it waits as long as `tick` returned (in ms);
 * `wake()` starts a run at once, or right after the current one, so work that was just written does not
 * wait for the next poll. The outbox relay and pollers of services (calendar sync) are built on it.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeRequested = false;
  private stopped = true;
  private lastStart = Number.NEGATIVE_INFINITY;

  /**
   * `minGapMs`: runs start at least that far apart. A wake-up (or a run asking for another at once) within that long
   * of the last run's start waits for the rest of it, so that work written one piece at a time, faster than that, is
   * taken several pieces a run (the relay's rows); a wake-up after a quiet spell still runs at once.
   */
  constructor(
    private readonly tick: () => Promise<number>,
    private readonly options: { minGapMs?: number } = {},
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wakeRequested = true;
    else this.schedule(this.restOfGap());
  }

  /** Stops scheduling runs and waits for the current one to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private restOfGap(): number {
    return Math.max(0, (this.options.minGapMs ?? 0) - (performance.now() - this.lastStart));
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    // A run belongs to no request's trace, although `wake()` is called from inside one (the request that wrote an
    // outbox row): without this, the timer would carry that request's context into this run and every later one.
    this.timer = setTimeout(() => {
      this.lastStart = performance.now();
      this.running = outsideAnyTrace(() => this.tick())
        .then(
          (delay) => delay,
          () => 1000, // a tick reports its own failures; this only keeps the loop alive
        )
        .then((delay) => {
          this.running = undefined;
          const again = this.wakeRequested;
          this.wakeRequested = false;
          if (!this.stopped) this.schedule(Math.max(again ? 0 : delay, this.restOfGap()));
        });
    }, ms);
  }
}
