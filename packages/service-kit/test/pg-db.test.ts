import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitSchema } from './support/kit-env.js';

describe('PgDb', () => {
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  const count = async () => (await schema.db.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM notes'))[0]?.n;

  beforeAll(async () => {
    schema = await kitSchema();
    await schema.db.$executeRawUnsafe('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
  });
  afterAll(() => schema.close());

  it('when the work succeeds, then everything it wrote commits and its result is returned', async () => {
    const inserted = await schema.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO notes (text) VALUES ($1)', 'kept');
      return tx.$executeRawUnsafe('INSERT INTO notes (text) VALUES ($1), ($2)', 'also', 'kept');
    });
    expect(inserted).toBe(2);
    expect(await count()).toBe(3);
  });

  it('when the work throws, then nothing it wrote is committed, the error comes back, and the pool keeps working', async () => {
    const before = await count();
    const failure = schema.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO notes (text) VALUES ($1)', 'rolled back');
      throw new Error('work failed');
    });
    await expect(failure).rejects.toThrow('work failed');
    expect(await count()).toBe(before);
    // A statement the server refuses inside the transaction ends it the same way.
    await expect(schema.db.$transaction((tx) => tx.$executeRawUnsafe('INSERT INTO notes (text) VALUES (NULL)'))).rejects.toThrow(/null/);
    expect(await count()).toBe(before);
  });

  it('when the connection dies inside the transaction, then the error comes back and the next transaction gets a live one', async () => {
    const failure = schema.db.$transaction((tx) => tx.$executeRawUnsafe('SELECT pg_terminate_backend(pg_backend_pid())'));
    await expect(failure).rejects.toThrow();
    for (let i = 0; i < 6; i += 1) {
      // More transactions than the pool has connections: a dead one handed out again would fail here.
      await schema.db.$transaction((tx) => tx.$executeRawUnsafe('INSERT INTO notes (text) VALUES ($1)', `after ${i}`));
    }
    expect(await count()).toBeGreaterThanOrEqual(6);
  });
});
