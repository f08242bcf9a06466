import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';

/** API.md: a key's `last_used_at` is written at most once a minute. */
const ONCE_PER_MS = 60_000;
/** Keys remembered as just written; beyond, the oldest may be written again early (the SQL still holds the minute). */
const MAX_KEYS = 10_000;

/**
 * Records which keys were used, off the request path: a request only marks its key (in memory), and a timer
 * writes the marked keys in one UPDATE every `flushMs`, each key at most once a minute (here, and in the statement
 * across gateways). A failed write is logged and the keys marked again; closing writes what is left.
 */
export class LastUsedWriter {
  private readonly written = new LRUCache<string, true>({ max: MAX_KEYS, ttl: ONCE_PER_MS });
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (ids: readonly string[]) => Promise<void>,
    private readonly flushMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Called on every authenticated request: costs a lookup in memory. */
  used(apiKeyId: string): void {
    if (this.written.has(apiKeyId)) return;
    this.written.set(apiKeyId, true);
    this.pending.add(apiKeyId);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes the keys marked since the last flush (one flush at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const ids = [...this.pending];
      this.pending = new Set();
      try {
        await this.write(ids);
      } catch (error) {
        this.log.warn({ err: error, keys: ids.length }, 'last_used_at not written; retried at the next flush');
        for (const id of ids) this.pending.add(id);
      }
    });
    return this.flushing;
  }
}
