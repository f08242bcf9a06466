import type pg from 'pg';

/**
 * Runs `work` in one transaction on one of the pool's connections: COMMIT when it resolves, ROLLBACK when
 * it throws (the error is rethrown). The connection goes back to the pool only when it is known to be idle
 * again; one whose ROLLBACK failed is discarded.
 */
export async function withTransaction<T>(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(rolledBack ? undefined : error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}
