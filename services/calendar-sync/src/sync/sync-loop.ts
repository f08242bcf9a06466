import { PollingLoop, type BackgroundTask } from '@app/service-kit';
import { claimDueConnections } from '../db/sync.repository.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { syncConnection } from '../use-cases/sync.use-case.js';

export interface SyncLoopSettings {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
}

/**
 * Polls for due connections and syncs up to `concurrency` at once. Creating a connection or asking for a
 * sync wakes it at once; other replicas see due rows at their next poll. A sync gets 80 % of its lease,
 * so it ends (and commits) before another replica may take the connection over.
 */
export class SyncLoop implements BackgroundTask {
  private readonly loop = new PollingLoop(async () => {
    await this.tick();
    return this.settings.pollMs;
  });
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly ctx: UseCaseContext,
    private readonly settings: SyncLoopSettings,
  ) {}

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
    const free = this.settings.concurrency - this.inFlight.size;
    if (this.stopping.signal.aborted || free <= 0) return;
    let claims;
    try {
      claims = await claimDueConnections(this.ctx.prisma, free, this.settings.leaseMs);
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'could not claim calendar connections to sync; will retry');
      return;
    }
    for (const claim of claims) {
      const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(Math.floor(this.settings.leaseMs * 0.8))]);
      const run = syncConnection(this.ctx, { claim, signal, stopping: this.stopping.signal })
        .catch((error: unknown) => this.ctx.log.error({ err: error, connection_id: claim.id }, 'calendar sync could not be recorded'))
        .finally(() => {
          this.inFlight.delete(claim.id);
          this.wake();
        });
      this.inFlight.set(claim.id, run);
    }
  }
}
