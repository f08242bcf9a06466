import type { FastifyBaseLogger } from 'fastify';
import { PollingLoop } from './polling-loop.js';
import type { BackgroundTask } from './background-task.js';

export interface ClaimingLoopOptions<Claim extends { id: string }> {
  /** Work items in flight at once in this replica: a number, or asked before each claim (a pacer's current limit). */
  concurrency: number | (() => number);
  pollMs: number;
  log: FastifyBaseLogger;
  /** What a failed claim is logged as ("calendar connections to sync"). */
  what: string;
  /** Claims up to `limit` due items (FOR UPDATE SKIP LOCKED and a lease, so replicas share them). */
  claim(limit: number): Promise<Claim[]>;
  /** Does one claimed item; `stopping` is aborted at shutdown. A failure is logged, and the item's lease runs out. */
  work(claim: Claim, stopping: AbortSignal): Promise<void>;
}

/**
 * Polls for due work and runs up to `concurrency` items at once, each claimed by this replica alone: calendar syncs,
 * webhook deliveries. `wake` polls at once (new work was written); a finished item wakes it too, to fill its place.
 * `stop` waits for the items in flight after telling them to stop.
 */
export class ClaimingLoop<Claim extends { id: string }> implements BackgroundTask {
  private readonly loop = new PollingLoop(async () => {
    await this.tick();
    return this.options.pollMs;
  });
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: ClaimingLoopOptions<Claim>) {}

  async start(): Promise<void> {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    await Promise.allSettled(this.inFlight.values());
  }

  private async tick(): Promise<void> {
    const { concurrency } = this.options;
    const free = (typeof concurrency === 'number' ? concurrency : concurrency()) - this.inFlight.size;
    if (this.stopping.signal.aborted || free <= 0) return;
    let claims: Claim[];
    try {
      claims = await this.options.claim(free);
    } catch (error) {
      this.options.log.warn({ err: error }, `could not claim ${this.options.what}; will retry`);
      return;
    }
    for (const claim of claims) {
      const run = this.options
        .work(claim, this.stopping.signal)
        .catch((error: unknown) => this.options.log.error({ err: error, id: claim.id }, `${this.options.what}: work could not be recorded`))
        .finally(() => {
          this.inFlight.delete(claim.id);
          this.wake();
        });
      this.inFlight.set(claim.id, run);
    }
  }
}
