import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { identifier, schemaName } from './identifiers.js';

/**
 * pg-pool's `query` destroys its connection whenever a query fails, even when the server merely refused it
 * (a constraint violation on a healthy connection), and Prisma's adapter sends every query outside a
 * transaction through `pool.query`: each SLOT_TAKEN or SLUG_TAKEN would cost a new connection. This pool's
 * `query` keeps the connection when the server answered with an error and drops it only when the connection
 * itself failed. Only the promise form (which Prisma's adapter, readiness checks and the services' SQL use)
 * is changed; callbacks and streams go to pg-pool's own `query`.
 */
class ServicePool extends pg.Pool {
  // `any`: one implementation stands for all of pg's overloads.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: unknown, values?: unknown, callback?: unknown): any {
    const streamed = typeof (config as { submit?: unknown } | null)?.submit === 'function';
    if (streamed || typeof values === 'function' || typeof callback === 'function')
      return super.query(config as string, values as never, callback as never);
    return this.queryKeepingConnection(config as string | pg.QueryConfig, values as unknown[] | undefined);
  }

  private async queryKeepingConnection(config: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const client = await this.connect();
    try {
      const result = await client.query(config, values);
      client.release();
      return result;
    } catch (error) {
      client.release(error instanceof pg.DatabaseError ? undefined : (error as Error));
      throw error;
    }
  }
}

export interface PoolOptions {
  max: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** The service's schema: unqualified names in raw SQL resolve there. */
  schema?: string;
  /** How long a query waits for a free connection (or a new one to open) before it fails: a 503 (isDatabaseBusy). */
  acquireTimeoutMs?: number;
  /**
   * False behind a pooler that hands each transaction another server connection (PgBouncer in transaction mode
   * before 1.21): a statement prepared under a name on one server connection is unknown, or a duplicate, on the
   * next. Statements then go unnamed (parsed and planned on every call).
   */
  namedStatements?: boolean;
}

/**
 * One pg pool per service, handed to Prisma's adapter. An idle connection that the server drops
 * (restart, pg_terminate_backend) emits 'error' on the pool; without a listener that would crash the
 * process, with one the pool just replaces the connection.
 */
export function createPool(url: string, options: PoolOptions): pg.Pool {
  const { max, log, schema, acquireTimeoutMs = 5000, namedStatements = true } = options;
  const pool = new ServicePool({
    connectionString: url,
    max,
    connectionTimeoutMillis: acquireTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Raw SQL (outbox, inbox, repositories) resolves unqualified names in the service's own schema;
    // public stays on the path for extension functions (pg_trgm, btree_gist). The service's role has the same
    // search path as a role setting, which is what applies behind PgBouncer (it drops startup options).
    ...(schema ? { options: `-c search_path=${schemaName(schema)},public` } : {}),
  });
  pool.on('error', (error) => log.warn({ err: error }, 'idle database connection lost; it will be replaced'));
  pool.on('connect', (client) => {
    // A connection that dies while checked out emits 'error' on its client, which pg-pool listens to only while
    // the client is idle: unheard, it would crash the process. The query in flight fails and is reported by
    // its caller, who releases the client with the error so the pool discards it.
    client.on('error', () => undefined);
    if (!namedStatements) sendUnnamed(client);
  });
  return pool;
}

/** Every statement of this connection goes as an unnamed one, whatever name its QueryConfig gives it. */
function sendUnnamed(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const named = typeof config === 'object' && config !== null && 'name' in config && (config as { name?: unknown }).name;
    return query(named ? { ...config, name: undefined } : config, ...rest);
  }) as typeof client.query;
}

/** Creates the database named in `url` when it does not exist (connecting to the server's `postgres` database). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const client = new pg.Client({ connectionString: adminUrlOf(url), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${identifier(name)}`).catch((error: { code?: string }) => {
        // Created meanwhile by a sibling service: 42P04, or 23505 when both inserts raced in pg_database.
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/** The same server and login on its `postgres` database: where databases and cluster-wide roles are managed. */
export function adminUrlOf(url: string): string {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}
