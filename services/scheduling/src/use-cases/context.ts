import type { ServiceContext } from '@app/service-kit';
import type { PrismaClient } from '../generated/prisma/client.js';

/** What every use case works with: the kit's context (pool, relay, clock) and the Prisma client for CRUD. */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
}
