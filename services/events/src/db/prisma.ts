import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** A Prisma client or an interactive transaction: repositories work with either. */
export type Db = Prisma.TransactionClient | PrismaClient;

/** Runs `work` in one transaction. Waits are generous: capacity checks queue on the event's row lock. */
export function transaction<T>(prisma: PrismaClient, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return prisma.$transaction(work, { maxWait: 10_000, timeout: 15_000 });
}
