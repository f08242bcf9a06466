import type pg from 'pg';
import type { SqlExecutor, TransactionalDb } from '../../src/index.js';

/**
 * The kit's database surface over plain pg, standing in for a service's Prisma client in the kit's own
 * tests (the kit has no Prisma schema of its own). Same SQL, same real Postgres.
 */
export class PgDb implements TransactionalDb {
  constructor(readonly pool: pg.Pool) {}

  async $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return (await this.pool.query(query, values)).rowCount ?? 0;
  }

  async $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> {
    return (await this.pool.query(query, values)).rows as T;
  }

  async $transaction<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    const tx: SqlExecutor = {
      $executeRawUnsafe: async (query, ...values) => (await client.query(query, values)).rowCount ?? 0,
      $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T,
    };
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }
}
