import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';

interface DriverCause {
  originalCode?: string;
  originalMessage?: string;
}

/** The SQLSTATE and message of a failed statement, whether it went through Prisma or straight through pg. */
function driverCause(error: unknown): DriverCause | undefined {
  if (error instanceof pg.DatabaseError) return { originalCode: error.code, originalMessage: error.message };
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  const meta = error.meta as { driverAdapterError?: { cause?: DriverCause } } | undefined;
  return meta?.driverAdapterError?.cause;
}

function violates(error: unknown, sqlState: string, constraint: string): boolean {
  const cause = driverCause(error);
  return cause?.originalCode === sqlState && (cause.originalMessage ?? '').includes(`"${constraint}"`);
}

/**
 * True when the insert/update hit `bookings_no_overlap`: SQLSTATE 23P01 with a message naming the constraint.
 * Prisma 7 with adapter-pg reports it as a known request error (P2039 from the model API, P2010 from raw
 * SQL) carrying both in `meta.driverAdapterError.cause`; pg (the create statement) as a DatabaseError.
 */
export function isOverlapViolation(error: unknown): boolean {
  return violates(error, '23P01', 'bookings_no_overlap');
}

/** The transaction was chosen as a deadlock victim (40P01) or failed serialization (40001): running it again is safe. */
export function isRetryableConflict(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034') return true;
  const code = driverCause(error)?.originalCode;
  return code === '40P01' || code === '40001';
}

/**
 * Runs a write again when Postgres aborted it as a deadlock victim (or failed its serialization). Writes on
 * one schedule no longer wait on each other in a circle (they queue on the schedule lock, schedule-lock.ts);
 * this stays for what the lock does not order — a booking row another transaction holds (a future job) —
 * where a rerun is safe: it is either applied or refused cleanly (23P01).
 */
export async function retryOnDeadlock<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
    }
  }
}
