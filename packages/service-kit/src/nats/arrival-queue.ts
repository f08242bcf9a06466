/** Messages in arrival order; `takeAll` waits for at least one and takes every one waiting (none once ended). */
export class ArrivalQueue<T> {
  private items: T[] = [];
  private ended = false;
  private wake: (() => void) | null = null;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async takeAll(): Promise<T[]> {
    while (this.items.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    return this.items.splice(0);
  }
}
