import type { ServiceContext } from '@app/service-kit';
import type { UpstreamChecks } from '../clients/upstream.client.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * What the use cases work with: the kit's context (pool, relay, clock), the Prisma client for plain reads,
 * and the checks other services answer. Built once in service.ts (tests build it the same way, through the service).
 */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
  upstream: UpstreamChecks;
}
