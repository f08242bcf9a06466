import { ClaimingLoop } from '@app/service-kit';
import { claimDueConnections, type ClaimedConnection } from '../db/sync.repository.js';
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
export class SyncLoop extends ClaimingLoop<ClaimedConnection> {
  constructor(ctx: UseCaseContext, settings: SyncLoopSettings) {
    super({
      concurrency: settings.concurrency,
      pollMs: settings.pollMs,
      log: ctx.log,
      what: 'calendar connections to sync',
      claim: (limit) => claimDueConnections(ctx.prisma, limit, settings.leaseMs),
      work: (claim, stopping) => {
        const signal = AbortSignal.any([stopping, AbortSignal.timeout(Math.floor(settings.leaseMs * 0.8))]);
        return syncConnection(ctx, { claim, signal, stopping });
      },
    });
  }
}
