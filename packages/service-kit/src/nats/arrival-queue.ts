/**
 * Messages in arrival order; `takeAll` waits for at least one and takes every one waiting (none once ended),
 * `takeWaiting` takes those waiting without waiting.
 * `push` waits while `capacity` messages are waiting: the reader stops taking messages off the subscription, so the
 * client stops pulling and the rest of a backlog stays on the server (not in memory, not timing out unacknowledged).
 */
export class ArrivalQueue<T> {
  private items: T[] = [];
  private ended = false;
  private wake: (() => void) | null = null;
  private room: (() => void) | null = null;

  constructor(private readonly capacity = Number.POSITIVE_INFINITY) {}

  async push(item: T): Promise<void> {
    while (this.items.length >= this.capacity && !this.ended) await new Promise<void>((resolve) => (this.room = resolve));
    this.items.push(item);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
    this.room?.();
  }

  /** Takes every message waiting now, none when none does; never waits. */
  takeWaiting(): T[] {
    const taken = this.items.splice(0);
    this.room?.();
    this.room = null;
    return taken;
  }

  async takeAll(): Promise<T[]> {
    while (this.items.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    return this.takeWaiting();
  }
}
