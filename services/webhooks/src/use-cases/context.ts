import type { LabelledCounter, ServiceContext } from '@app/service-kit';
import type { Resolve, TargetPolicy } from '@app/service-kit';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { FeedWaits } from '../workers/feed-frontier.worker.js';

/** What every use case works with: the kit's context, Prisma, and the delivery settings. */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
  /** Which endpoint URLs are accepted (also enforced again at every connect). */
  targets: TargetPolicy;
  resolve: Resolve;
  /** Tells the delivery loop that deliveries are due (it also polls). */
  wakeDeliveries: () => void;
  /** Attempts by what came of them: `succeeded`, `retry` (failed, another is scheduled), `failed` (the last). */
  attemptOutcomes: LabelledCounter<'outcome'>;
  /** The change feed's frontier on this replica: long-polling requests wait on it. */
  feed: FeedWaits;
  /** The public streams' names (with the NATS prefix), whose watermarks make the feed's frontier. */
  feedStreams: readonly string[];
}
