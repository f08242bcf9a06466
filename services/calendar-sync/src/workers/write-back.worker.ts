import { ClaimingLoop } from '@app/service-kit';
import { claimDueWrites, type ClaimedWrite } from '../db/write-claim.repository.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { writeBookingEvent } from '../use-cases/write-back.use-case.js';

export interface WriteLoopSettings {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
}

/**
 * Polls for due calendar writes (calendar_writes rows the bookings consumer made due, or whose retry time came) and
 * runs up to `concurrency` at once, each claimed by this replica alone. An attempt gets 80 % of its lease, so it
 * records its result before another replica may take the row over.
 */
export class WriteBackLoop extends ClaimingLoop<ClaimedWrite> {
  constructor(ctx: UseCaseContext, settings: WriteLoopSettings) {
    super({
      concurrency: settings.concurrency,
      pollMs: settings.pollMs,
      log: ctx.log,
      what: 'calendar writes',
      claim: (limit) => claimDueWrites(ctx.prisma, limit, settings.leaseMs),
      work: (claim, stopping) => {
        const signal = AbortSignal.any([stopping, AbortSignal.timeout(Math.floor(settings.leaseMs * 0.8))]);
        return writeBookingEvent(ctx, { claim, signal, stopping });
      },
    });
  }
}
