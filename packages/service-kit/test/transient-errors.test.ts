import pg from 'pg';
import { ConnectionError, NoRespondersError, TimeoutError } from '@nats-io/nats-core';
import { describe, expect, it } from 'vitest';
import { isTransientError, retryDelayMs } from '../src/index.js';

/** A Postgres answer with a SQLSTATE, as pg raises it. */
const pgError = (code: string) => Object.assign(new pg.DatabaseError('from the server', 0, 'error'), { code });
/** A Postgres answer through Prisma's pg adapter. */
const viaPrisma = (code: string) => Object.assign(new Error('prisma'), { meta: { driverAdapterError: { cause: { originalCode: code } } } });
const socket = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isTransientError', () => {
  it.each([
    ['the server refuses connections (ECONNREFUSED)', socket('ECONNREFUSED')],
    ['both addresses refuse (AggregateError of ECONNREFUSED)', new AggregateError([socket('ECONNREFUSED'), socket('ECONNREFUSED')])],
    ['the connection is reset', socket('ECONNRESET')],
    ['a connection is lost mid-query (pg, no code)', new Error('Connection terminated unexpectedly')],
    ['the pool has no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['Postgres is shutting down (57P01)', pgError('57P01')],
    ['Postgres is starting (57P03)', pgError('57P03')],
    ['a connection exception (08006)', pgError('08006')],
    ['too many connections (53300)', pgError('53300')],
    ['a statement timeout (57014)', pgError('57014')],
    ['a lock timeout (55P03)', pgError('55P03')],
    ['a serialization failure (40001)', pgError('40001')],
    ['a deadlock (40P01) through Prisma', viaPrisma('40P01')],
    ['Prisma cannot reach the database (P1001)', Object.assign(new Error('unreachable'), { code: 'P1001' })],
    ['Prisma has no transaction in time (P2028)', Object.assign(new Error('no transaction'), { code: 'P2028' })],
    ['a wrapped cause', new Error('handler failed', { cause: socket('ETIMEDOUT') })],
    ['NATS is disconnected', new ConnectionError('disconnected')],
    ['a NATS request timed out', new TimeoutError()],
    ['nobody answers on NATS', new NoRespondersError('x.y')],
  ])('when %s, then it is transient', (_case, error) => {
    expect(isTransientError(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', pgError('23505')],
    ['a check violation (23514) through Prisma', viaPrisma('23514')],
    ['a range with its bounds swapped (22000)', pgError('22000')],
    ['a permission refused (42501)', pgError('42501')],
    ['a bug in the handler', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a refusal the handler throws', new Error('booking refused')],
    ['a thrown string', 'oops'],
    ['nothing', undefined],
  ])('when %s, then it is not transient (dead-lettered)', (_case, error) => {
    expect(isTransientError(error)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('when deliveries keep failing, then the wait doubles from the first and stays at the cap, without end', () => {
    const schedule = { initialMs: 250, maxMs: 30_000 };
    expect([1, 2, 3, 4, 7, 8, 20, 1000, 1e9].map((attempt) => retryDelayMs(schedule, attempt))).toEqual([
      250, 500, 1000, 2000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
  });
});
