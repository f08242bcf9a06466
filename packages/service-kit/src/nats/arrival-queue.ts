/**
 * Messages in arrival order; `takeAll` waits for at least one (and, if asked, a while for more) and takes every one
 * waiting (none once ended).
 * `push` waits while `capacity` messages are waiting: the reader stops taking messages off the subscription, so the
 * client stops pulling and the rest of a backlog stays on the server (not in memory, not timing out unacknowledged).
 */
export class ArrivalQueue<T> {
  private items: T[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
  private room: (() => void) | null = null;
  private gathering: (() => void) | null = null;

  constructor(private readonly capacity = Number.POSITIVE_INFINITY) {}

  async push(item: T): Promise<void> {
    while (this.items.length >= this.capacity && !this.ended) await new Promise<void>((resolve) => (this.room = resolve));
    this.items.push(item);
    this.wake?.();
    if (this.items.length >= this.capacity) this.release(); // full: waiting longer would only hold the reader up
  }

  end(): void {
    this.ended = true;
    this.wake?.();
    this.room?.();
    this.release();
  }

  /**
   * Waits for at least one message; then, for as many milliseconds as `gatherMs` says once it has come (none by
   * default), lets more come before taking them all together, unless the queue fills, ends or is `release`d first.
   * Batching consumers use it to take several events a transaction when they come one at a time.
   */
  async takeAll(gatherMs: () => number = () => 0): Promise<T[]> {
    while (this.items.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    const ms = this.ended ? 0 : gatherMs();
    if (ms > 0 && this.items.length < this.capacity)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.release(), ms);
        this.gathering = () => {
          clearTimeout(timer);
          this.gathering = null;
          resolve();
        };
      });
    const taken = this.items.splice(0);
    this.room?.();
    this.room = null;
    return taken;
  }

  /** Ends the gathering of a `takeAll` now: what has come is taken at once. */
  release(): void {
    this.gathering?.();
  }
}
