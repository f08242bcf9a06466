import pg from 'pg';

/** The SQLSTATEs the services act on (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const SqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  exclusionViolation: '23P01',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
  /** The role's statement_timeout cancelled the statement (or an operator did). */
  queryCanceled: '57014',
  /** The role's lock_timeout gave up a lock wait. */
  lockNotAvailable: '55P03',
  /** The role's idle_in_transaction_session_timeout ended the session. */
  idleInTransactionTimeout: '25P03',
  tooManyConnections: '53300',
  adminShutdown: '57P01',
  cannotConnectNow: '57P03',
  /** A value Postgres cannot read as its type: jsonb with a lone surrogate (`\ud800`), a malformed uuid. */
  invalidTextRepresentation: '22P02',
  /** A Unicode escape the server encoding cannot hold (`\u0000` turned into jsonb text). */
  untranslatableCharacter: '22P05',
  /** Bytes that are not valid in the database's encoding (UTF-8). */
  characterNotInRepertoire: '22021',
} as const;

/** Answers that say a value the request carried cannot be stored as it is: the client's input, not a fault. */
const UNSTORABLE_STATES: ReadonlySet<string> = new Set([
  SqlState.invalidTextRepresentation,
  SqlState.untranslatableCharacter,
  SqlState.characterNotInRepertoire,
]);

/** Answers that say the database is overloaded or restarting, not that the request is wrong: worth a retry later. */
const BUSY_STATES: ReadonlySet<string> = new Set([
  SqlState.queryCanceled,
  SqlState.lockNotAvailable,
  SqlState.idleInTransactionTimeout,
  SqlState.tooManyConnections,
  SqlState.adminShutdown,
  SqlState.cannotConnectNow,
]);

/**
 * Prisma's transaction API error: mostly "Unable to start a transaction in the given time" (no pooled connection came
 * within its maxWait, 2 s by default), else a transaction that outlived its timeout. Both are load, not the request.
 */
const PRISMA_TRANSACTION_NOT_STARTED = 'P2028';

/**
 * pg-pool's message when no connection freed up within `connectionTimeoutMillis` (every one is in use), and pg's
 * when the server did not accept a new one in time (a pooled connection's, or a lone client's "timeout expired").
 */
const POOL_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout|^timeout expired$/;

/** What Postgres said about a failed statement: its SQLSTATE and, for constraint violations, the constraint. */
export interface PgFailure {
  code: string;
  constraint: string | undefined;
}

interface AdapterCause {
  originalCode?: string;
  originalMessage?: string;
  constraint?: { index?: string };
}

/**
 * The Postgres failure behind `error`, whichever way the statement went: straight through pg (a
 * DatabaseError with `code` and `constraint`) or through Prisma's pg adapter (a known request error whose
 * `meta.driverAdapterError.cause` carries the SQLSTATE, and the constraint either as `constraint.index` or
 * only inside the message). Null when `error` is not a database's answer.
 */
export function pgFailureOf(error: unknown): PgFailure | null {
  if (error instanceof pg.DatabaseError) return error.code ? { code: error.code, constraint: error.constraint } : null;
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  if (!cause?.originalCode) return null;
  const named = cause.constraint?.index ?? /constraint "([^"]+)"/.exec(cause.originalMessage ?? '')?.[1];
  return { code: cause.originalCode, constraint: named };
}

function violates(error: unknown, code: string, constraint: string | undefined): boolean {
  const failure = pgFailureOf(error);
  return failure?.code === code && (constraint === undefined || failure.constraint === constraint);
}

/** A unique constraint (or a named one) refused the write. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return violates(error, SqlState.uniqueViolation, constraint);
}

/** An exclusion constraint (or a named one) refused the write: an overlapping range. */
export function isExclusionViolation(error: unknown, constraint?: string): boolean {
  return violates(error, SqlState.exclusionViolation, constraint);
}

/** The write named a row that does not exist (or no longer does). */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return violates(error, SqlState.foreignKeyViolation, constraint);
}

/** Postgres aborted the transaction as a deadlock victim or a serialization failure: running it again is safe. */
export function isRetryableConflict(error: unknown): boolean {
  const code = pgFailureOf(error)?.code;
  if (code === SqlState.deadlockDetected || code === SqlState.serializationFailure) return true;
  // Prisma reports a transaction it could not commit for a write conflict or deadlock as P2034.
  return (error as { code?: unknown } | null)?.code === 'P2034';
}

/**
 * Postgres refused a value of the request as unreadable for its type or encoding. The schemas refuse such input
 * (lone surrogates, NUL, malformed ids) before any statement runs; should one slip through, it is still the client's
 * input, answered 400 rather than 500 (the error handler logs it, so the gap in the validation is seen).
 * Looks through Prisma's wrapping too.
 */
export function isUnstorableValue(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = pgFailureOf(current)?.code;
    if (code && UNSTORABLE_STATES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The database could not serve the statement now: the pool had no free connection in time, or Postgres cancelled
 * it for a timeout, refused a connection or is shutting down. A 503 with Retry-After, not a 500: nothing is wrong
 * with the request, and the same request will succeed once the load passes. Looks through Prisma's wrapping too.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if ((current as { code?: unknown }).code === PRISMA_TRANSACTION_NOT_STARTED) return true;
    const code = pgFailureOf(current)?.code;
    if (code && (BUSY_STATES.has(code) || code.startsWith('08'))) return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && POOL_TIMEOUT.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
