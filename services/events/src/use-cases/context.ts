import { uuidSchema } from '@app/contracts';
import { AppError, type Queryable } from '@app/service-kit';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { transaction } from '../db/prisma.js';

/** What every use case works with: the database (through Prisma, and the pool for hot reads), the outbox relay to wake after a commit, and the clock. */
export interface UseCaseContext {
  prisma: PrismaClient;
  pool: Queryable;
  relay: { wake(): void };
  now: () => Date;
}

/** Who is asking: the organization stamped by the gateway, its default time zone, the request id. */
export interface Caller {
  organizationId: string;
  timezone: string;
  requestId: string;
}

/** Runs a change in one transaction (with its outbox rows), then lets the relay publish at once. */
export async function write<T>(ctx: UseCaseContext, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const result = await transaction(ctx.prisma, work);
  ctx.relay.wake();
  return result;
}

/** The outbox context of a change made for `caller`. */
export function eventContext(caller: Caller): { organizationId: string; correlationId: string } {
  return { organizationId: caller.organizationId, correlationId: caller.requestId };
}

/** A malformed id cannot name a record: it is a 404 like an unknown one, never a database error. */
export function requireId(id: string, what: string): void {
  if (!uuidSchema.safeParse(id).success) throw notFoundError(what);
}

export function notFoundError(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`);
}
