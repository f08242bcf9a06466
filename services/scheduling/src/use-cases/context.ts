import { AppError, type OutboxRelay, type Queryable } from '@app/service-kit';
import type { PrismaClient } from '../generated/prisma/client.js';

/** What every use case works with: the database, the relay to wake after a commit, and the clock. */
export interface UseCaseContext {
  prisma: PrismaClient;
  /** The same database through pg, for the hot reads (slots, availability checks). */
  pool: Queryable;
  relay: Pick<OutboxRelay, 'wake'>;
  /** Injected so tests pin "now" (minimum notice, default dates). */
  now: () => Date;
}

/** The answer for an unknown, inactive, malformed or other organization's schedule (slots and requests). */
export function scheduleNotFound(): AppError {
  return new AppError('SCHEDULE_NOT_FOUND', 'Schedule not found or inactive');
}
