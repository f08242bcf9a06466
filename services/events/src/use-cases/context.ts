import type { ServiceContext } from '@app/service-kit';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { transaction } from '../db/prisma.js';

/** What every use case works with: the kit's context (pool, relay, clock) and the Prisma client for CRUD. */
export interface UseCaseContext extends ServiceContext {
  prisma: PrismaClient;
}

/** Runs a change in one transaction (with its outbox rows), then lets the relay publish at once. */
export async function write<T>(ctx: UseCaseContext, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const result = await transaction(ctx.prisma, work);
  ctx.relay.wake();
  return result;
}
