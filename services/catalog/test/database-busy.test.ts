import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '@app/service-testing';
import type { Config } from '../src/config.js';
import { Client, startCatalog } from './support/harness.js';

describe('catalog when every database connection is taken', () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  let running: RunningService<Config>;
  beforeAll(async () => {
    // Two connections, and a wait for one longer than Prisma's own for a transaction (maxWait, 2 s): that one gives
    // up first, with its P2028. The test takes both connections and keeps them.
    catalog = await startCatalog({ DATABASE_POOL_SIZE: '2', DATABASE_POOL_TIMEOUT_MS: '3000' });
    running = catalog.running;
  });
  afterAll(() => catalog?.stop());

  it('when the pool is exhausted, then a create in a Prisma transaction is 503 with Retry-After; once freed, it works', async () => {
    const client = new Client(running);
    const held = await Promise.all([running.infra.pool.connect(), running.infra.pool.connect()]);
    try {
      const refused = await client.post('/api/v1/products', { name: 'Busy', price: 1 });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({ error: 'The database did not answer in time', code: 'UPSTREAM_UNAVAILABLE' });
    } finally {
      for (const connection of held) connection.release();
    }
    expect((await client.post('/api/v1/products', { name: 'Busy', price: 1 })).statusCode).toBe(201);
  });
});
