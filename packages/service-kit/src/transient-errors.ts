import { ClosedConnectionError, ConnectionError, NoRespondersError, RequestError, TimeoutError } from '@nats-io/nats-core';
import { isDatabaseBusy, isRetryableConflict, pgFailureOf } from './db/pg-errors.js';

/**
 * Node's socket errors (`error.code`) of a server that is down, restarting or unreachable: the same work succeeds
 * once it is back.
 */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Prisma's errors of a database it cannot reach or that has no connection for it in time (P1001 unreachable, P1002
 * timed out, P1008 operation timed out, P1017 connection closed, P2024 pool timeout, P2028 no transaction in time).
 */
const PRISMA_CODES: ReadonlySet<string> = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034']);

/** SQLSTATE classes of a server that cannot serve now (53 insufficient resources, 08 connection exception). */
const BUSY_CLASSES = ['08', '53'];

/**
 * pg's errors of a connection lost under it carry no code: a server killed or a socket cut mid-query. Read by text as
 * pg gives nothing else (NATS errors, by contrast, are told by their classes below).
 */
const PG_CONNECTION_LOST = /^Connection terminated( unexpectedly)?$|^Client has encountered a connection error and is not queryable$/;

/** NATS could not take the request now: disconnected, closed, timed out, or nobody answering. */
const NATS_UNAVAILABLE = [ConnectionError, ClosedConnectionError, RequestError, TimeoutError, NoRespondersError];

/**
 * Whether `error` says "not now" rather than "never": the database or NATS is down, restarting, overloaded, or the
 * transaction lost a conflict. Work that failed so is retried without limit (nothing is wrong with it); any other
 * error is the work's own (a constraint, a bug, a refused event) and retrying it would fail the same way. Looks
 * through `cause` chains (Prisma and AggregateError wrap the driver's error).
 */
export function isTransientError(error: unknown): boolean {
  if (isDatabaseBusy(error) || isRetryableConflict(error)) return true;
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (NATS_UNAVAILABLE.some((type) => current instanceof type)) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || PRISMA_CODES.has(code))) return true;
    const state = pgFailureOf(current)?.code;
    if (state && BUSY_CLASSES.some((prefix) => state.startsWith(prefix))) return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CONNECTION_LOST.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some(isTransientError)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
