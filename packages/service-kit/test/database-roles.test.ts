import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createPool, migrate } from '../src/index.js';
import { isDatabaseBusy } from '../src/db/pg-errors.js';
import { errorHandler } from '../src/http/error-handler.js';
import { silentLog } from './support/kit-env.js';

const adminUrl = inject('databaseUrl');
const roles: string[] = [];

/** A schema of its own with one table, migrated by the superuser for a login role of its own (names are cluster-wide). */
async function serviceOfItsOwn(timeouts = { statementTimeoutMs: 5000, lockTimeoutMs: 3000, idleInTransactionTimeoutMs: 15_000 }) {
  const name = `kit_${randomBytes(4).toString('hex')}`;
  const role = `${name}_service`;
  roles.push(role);
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  writeFileSync(join(dir, '0001_init.sql'), 'CREATE TABLE secrets (id serial PRIMARY KEY, value text NOT NULL);');
  const url = new URL(adminUrl);
  url.username = role;
  url.password = `pw-${role}`;
  const databaseUrl = url.toString();
  await migrate({ databaseUrl, migrationUrl: adminUrl, schema: name, dir, timeouts });
  return { schema: name, role, databaseUrl };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<pg.QueryResult<T>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query<T>(sql);
  } finally {
    await client.end();
  }
}

async function sqlStateOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return (error as { code?: string } | undefined)?.code;
}

afterAll(async () => {
  for (const role of roles) {
    await query(adminUrl, `DROP OWNED BY "${role}"`).catch(() => undefined);
    await query(adminUrl, `DROP ROLE IF EXISTS "${role}"`).catch(() => undefined);
  }
});

describe('a Postgres role per service', () => {
  it('when a superuser migrates, then the service role reads and writes its own tables and cannot even see another schema', async () => {
    const own = await serviceOfItsOwn();
    const other = await serviceOfItsOwn();
    await query(other.databaseUrl, `INSERT INTO ${other.schema}.secrets (value) VALUES ('theirs')`);

    await query(own.databaseUrl, `INSERT INTO ${own.schema}.secrets (value) VALUES ('mine')`);
    const mine = await query<{ value: string }>(own.databaseUrl, `SELECT value FROM ${own.schema}.secrets`);
    expect(mine.rows).toEqual([{ value: 'mine' }]);
    // 42501 insufficient_privilege: no USAGE on the other schema.
    expect(await sqlStateOf(query(own.databaseUrl, `SELECT value FROM ${other.schema}.secrets`))).toBe('42501');
  });

  it('when the service role tries DDL in its own schema, then it is refused: migrations belong to the migration role', async () => {
    const own = await serviceOfItsOwn();
    expect(await sqlStateOf(query(own.databaseUrl, `CREATE TABLE ${own.schema}.extra (id int)`))).toBe('42501');
    expect(await sqlStateOf(query(own.databaseUrl, `DROP TABLE ${own.schema}.secrets`))).toBe('42501');
    // It reads the migration records (to check its schema at start) and may not forge or erase them.
    expect((await query(own.databaseUrl, `SELECT name FROM ${own.schema}.migrations`)).rows).toEqual([{ name: '0001_init' }]);
    expect(await sqlStateOf(query(own.databaseUrl, `DELETE FROM ${own.schema}.migrations`))).toBe('42501');
    expect(await sqlStateOf(query(own.databaseUrl, `INSERT INTO ${own.schema}.kit_migrations (name, run_on) VALUES ('x', now())`))).toBe(
      '42501',
    );
    const owners = await query<{ owner: string }>(
      adminUrl,
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = '${own.schema}'::regnamespace
       UNION SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = '${own.schema}'`,
    );
    expect(owners.rows).toEqual([{ owner: 'migrator' }]);
  });

  it('when the role logs in, then its statement, lock and idle-in-transaction timeouts and its search path are set', async () => {
    const own = await serviceOfItsOwn({ statementTimeoutMs: 1500, lockTimeoutMs: 700, idleInTransactionTimeoutMs: 9000 });
    const settings = await query<{ name: string; setting: string }>(
      own.databaseUrl,
      `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['statement_timeout', 'lock_timeout',
         'idle_in_transaction_session_timeout', 'search_path']) AS name ORDER BY name`,
    );
    expect(Object.fromEntries(settings.rows.map((row) => [row.name, row.setting]))).toEqual({
      idle_in_transaction_session_timeout: '9s',
      lock_timeout: '700ms',
      search_path: `${own.schema}, public`,
      statement_timeout: '1500ms',
    });
  });

  it('when a schema was migrated by a superuser alone before, then the next migration hands it to the migration role', async () => {
    const schema = `kit_${randomBytes(4).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '0001_init.sql'), 'CREATE TABLE secrets (id serial PRIMARY KEY, value text NOT NULL);');
    await migrate({ databaseUrl: adminUrl, schema, dir });
    const role = `${schema}_service`;
    roles.push(role);
    const url = new URL(adminUrl);
    url.username = role;
    await migrate({ databaseUrl: url.toString(), migrationUrl: adminUrl, schema, dir });

    await query(url.toString(), `INSERT INTO ${schema}.secrets (value) VALUES ('kept')`);
    const owners = await query<{ owner: string }>(
      adminUrl,
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = '${schema}'::regnamespace`,
    );
    expect(owners.rows).toEqual([{ owner: 'migrator' }]);
  });

  it('when the service starts as its own role, then it checks the migrations it may not apply, and refuses a schema behind', async () => {
    const own = await serviceOfItsOwn();
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '0001_init.sql'), 'CREATE TABLE secrets (id serial PRIMARY KEY, value text NOT NULL);');
    await expect(migrate({ databaseUrl: own.databaseUrl, schema: own.schema, dir })).resolves.toBeUndefined();

    writeFileSync(join(dir, '0002_more.sql'), 'ALTER TABLE secrets ADD COLUMN more text;');
    await expect(migrate({ databaseUrl: own.databaseUrl, schema: own.schema, dir })).rejects.toThrow(
      `schema ${own.schema} lacks 1 migration(s) (0002_more), and this role may not apply them`,
    );
    await migrate({ databaseUrl: own.databaseUrl, migrationUrl: adminUrl, schema: own.schema, dir });
    await expect(migrate({ databaseUrl: own.databaseUrl, schema: own.schema, dir })).resolves.toBeUndefined();
    await query(own.databaseUrl, `INSERT INTO ${own.schema}.secrets (value, more) VALUES ('a', 'b')`);
  });

  it('when the migration step runs, then the extensions the services use exist once, in public', async () => {
    await serviceOfItsOwn();
    const extensions = await query<{ extname: string; schema: string }>(
      adminUrl,
      `SELECT extname, extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname IN ('btree_gist', 'pg_trgm') ORDER BY extname`,
    );
    expect(extensions.rows).toEqual([
      { extname: 'btree_gist', schema: 'public' },
      { extname: 'pg_trgm', schema: 'public' },
    ]);
  });
});

describe('a database that cannot serve a request in time', () => {
  /** A bare app with the kit's error handler, whose route runs `sql` on `pool`. */
  async function appRunning(pool: pg.Pool, sql: string) {
    const app = Fastify({ logger: false });
    app.setErrorHandler(errorHandler);
    app.get('/work', async () => {
      await pool.query(sql);
      return { ok: true };
    });
    await app.ready();
    return app;
  }

  it('when a statement runs past the role statement timeout, then the answer is a 503 with Retry-After', async () => {
    const own = await serviceOfItsOwn({ statementTimeoutMs: 200, lockTimeoutMs: 200, idleInTransactionTimeoutMs: 5000 });
    const pool = createPool(own.databaseUrl, { max: 2, log: silentLog, schema: own.schema });
    const app = await appRunning(pool, 'SELECT pg_sleep(2)');
    try {
      const response = await app.inject({ method: 'GET', url: '/work' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({ error: 'The database did not answer in time', code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      await app.close();
      await pool.end();
    }
  });

  it('when a row lock is held past the role lock timeout, then the waiting request is a 503, not a hang', async () => {
    const own = await serviceOfItsOwn({ statementTimeoutMs: 5000, lockTimeoutMs: 200, idleInTransactionTimeoutMs: 5000 });
    await query(own.databaseUrl, `INSERT INTO ${own.schema}.secrets (value) VALUES ('locked')`);
    const holder = new pg.Client({ connectionString: own.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT * FROM ${own.schema}.secrets FOR UPDATE`);
    const pool = createPool(own.databaseUrl, { max: 2, log: silentLog, schema: own.schema });
    const app = await appRunning(pool, `UPDATE secrets SET value = 'changed'`);
    try {
      const response = await app.inject({ method: 'GET', url: '/work' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
      await app.close();
      await pool.end();
    }
  });

  it('when every pooled connection stays busy past the acquire timeout, then the next request is a 503 with Retry-After', async () => {
    const own = await serviceOfItsOwn();
    const pool = createPool(own.databaseUrl, { max: 1, log: silentLog, schema: own.schema, acquireTimeoutMs: 150 });
    const busy = await pool.connect();
    const app = await appRunning(pool, 'SELECT 1');
    try {
      const response = await app.inject({ method: 'GET', url: '/work' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      busy.release();
      await app.close();
      await pool.end();
    }
  });

  it('when a query fails for a reason of its own, then it is not taken for a busy database', async () => {
    const pool = createPool(adminUrl, { max: 1, log: silentLog });
    try {
      const failure = await pool.query('SELECT * FROM no_such_table').catch((error: unknown) => error);
      expect(isDatabaseBusy(failure)).toBe(false);
      expect(isDatabaseBusy(new Error('timeout exceeded when trying to connect'))).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
