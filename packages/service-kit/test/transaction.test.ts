import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isExclusionViolation, isForeignKeyViolation, isUniqueViolation, pgFailureOf, withTransaction } from '../src/index.js';
import { kitSchema } from './support/kit-env.js';

describe('withTransaction', () => {
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  const count = async () => (await schema.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')).rows[0]?.n;

  beforeAll(async () => {
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
  });
  afterAll(() => schema.close());

  it('when the work succeeds, then everything it wrote commits and its result is returned', async () => {
    const before = await count();
    const inserted = await withTransaction(schema.pool, async (tx) => {
      await tx.query('INSERT INTO notes (text) VALUES ($1)', ['kept']);
      return (await tx.query('INSERT INTO notes (text) VALUES ($1), ($2)', ['also', 'kept'])).rowCount;
    });
    expect(inserted).toBe(2);
    expect(await count()).toBe((before ?? 0) + 3);
  });

  it('when the work throws, then nothing it wrote is committed, the error comes back, and the pool keeps working', async () => {
    const before = await count();
    const failure = withTransaction(schema.pool, async (tx) => {
      await tx.query('INSERT INTO notes (text) VALUES ($1)', ['rolled back']);
      throw new Error('work failed');
    });
    await expect(failure).rejects.toThrow('work failed');
    expect(await count()).toBe(before);
    // A statement the server refuses inside the transaction ends it the same way.
    await expect(withTransaction(schema.pool, (tx) => tx.query('INSERT INTO notes (text) VALUES (NULL)'))).rejects.toThrow(/null/);
    expect(await count()).toBe(before);
  });

  it('when the connection dies inside the transaction, then the error comes back and the next transaction gets a live one', async () => {
    const failure = withTransaction(schema.pool, (tx) => tx.query('SELECT pg_terminate_backend(pg_backend_pid())'));
    await expect(failure).rejects.toThrow();
    for (let i = 0; i < 6; i += 1) {
      // More transactions than the pool has connections: a dead one handed out again would fail here.
      await withTransaction(schema.pool, (tx) => tx.query('INSERT INTO notes (text) VALUES ($1)', [`after ${i}`]));
    }
    expect(await count()).toBeGreaterThanOrEqual(6);
  });
});

describe('Postgres failures, read by SQLSTATE and constraint name', () => {
  let schema: Awaited<ReturnType<typeof kitSchema>>;

  beforeAll(async () => {
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE rooms (id int PRIMARY KEY, name text CONSTRAINT rooms_name_key UNIQUE)');
    await schema.pool.query(`CREATE TABLE stays (room int CONSTRAINT stays_room_fkey REFERENCES rooms, during tstzrange,
      CONSTRAINT stays_no_overlap EXCLUDE USING gist (during WITH &&))`);
    await schema.pool.query(`INSERT INTO rooms VALUES (1, 'blue')`);
    await schema.pool.query(`INSERT INTO stays VALUES (1, '[2026-01-01,2026-01-03)')`);
  });
  afterAll(() => schema.close());

  const failureOf = (text: string) =>
    schema.pool.query(text).then(
      () => null,
      (error: unknown) => error,
    );

  it('when a unique constraint refuses a write, then it is a unique violation of that constraint only', async () => {
    const error = await failureOf(`INSERT INTO rooms VALUES (2, 'blue')`);
    expect(pgFailureOf(error)).toEqual({ code: '23505', constraint: 'rooms_name_key' });
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'rooms_name_key')).toBe(true);
    expect(isUniqueViolation(error, 'rooms_pkey')).toBe(false);
    expect(isForeignKeyViolation(error)).toBe(false);
  });

  it('when an exclusion or foreign key constraint refuses a write, then each is told apart by its SQLSTATE', async () => {
    const overlap = await failureOf(`INSERT INTO stays VALUES (1, '[2026-01-02,2026-01-04)')`);
    expect(isExclusionViolation(overlap, 'stays_no_overlap')).toBe(true);
    const unknownRoom = await failureOf(`INSERT INTO stays VALUES (9, '[2026-02-01,2026-02-02)')`);
    expect(isForeignKeyViolation(unknownRoom, 'stays_room_fkey')).toBe(true);
    expect(isExclusionViolation(unknownRoom)).toBe(false);
  });

  it('when a refused statement ran through the pool, then the pool keeps its connection', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 5; i += 1) {
      await failureOf(`INSERT INTO rooms VALUES (1, 'again')`);
      const { rows } = await schema.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      pids.add(rows[0]?.pid ?? -1);
    }
    // Four connections at most, and each refused insert would otherwise have cost a new one.
    expect(schema.pool.totalCount).toBeLessThanOrEqual(2);
    expect(pids.size).toBeLessThanOrEqual(2);
  });

  it('when something other than Postgres failed, then there is no Postgres failure to read', () => {
    expect(pgFailureOf(new Error('socket hang up'))).toBeNull();
    expect(pgFailureOf(undefined)).toBeNull();
  });
});
