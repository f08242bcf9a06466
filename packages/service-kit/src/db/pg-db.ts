import type pg from 'pg';
import type { SqlExecutor, TransactionalDb } from './prisma.js';

type Client = Pick<pg.Pool | pg.PoolClient, 'query'>;

function executorOf(client: Client): SqlExecutor {
  return {
    $executeRawUnsafe: async (query, ...values) => (await client.query(query, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T,
  };
}

/**
 * The kit's database surface (raw SQL and transactions) straight over the pool. The outbox relays and the
 * event consumers run on it rather than on Prisma: they only send raw SQL, and behind every booking they
 * run several statements, each of which costs several times the CPU through Prisma's engine.
 */
export class PgDb implements TransactionalDb {
  private readonly direct: SqlExecutor;

  constructor(readonly pool: pg.Pool) {
    this.direct = executorOf(pool);
  }

  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return this.direct.$executeRawUnsafe(query, ...values);
  }

  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> {
    return this.direct.$queryRawUnsafe<T>(query, ...values);
  }

  async $transaction<R>(work: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(executorOf(client));
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // The connection goes back to the pool only when it is known to be idle again.
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      client.release(rolledBack ? undefined : error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }
}
