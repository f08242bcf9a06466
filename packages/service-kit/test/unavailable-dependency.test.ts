import { ConnectionError } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, type ServiceApp } from '../src/index.js';
import { silentLog } from './support/kit-env.js';

/** What a route's statement meets when the database or NATS goes away under it. */
const FAILURES: Record<string, () => Error> = {
  'lost-connection': () => new Error('Connection terminated unexpectedly'),
  refused: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6432'), { code: 'ECONNREFUSED' }),
  nats: () => new ConnectionError('disconnected'),
  bug: () => new Error('undefined is not a function'),
};

describe('a route failing because a dependency went away', () => {
  let app: ServiceApp;
  beforeAll(async () => {
    app = await buildService({ name: 'unavailable-test', log: silentLog, verifyCallerAssertion: false });
    app.get('/fail/:kind', { schema: { hide: true } }, async (request) => {
      throw FAILURES[(request.params as { kind: string }).kind]!();
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it.each(['lost-connection', 'refused', 'nats'])(
    'when it is %s (a primary killed mid-statement, a failover, NATS away), then the answer is 503 with Retry-After, not 500',
    async (kind) => {
      const response = await app.inject({ url: `/fail/${kind}` });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({
        error: 'A service this request needs is unavailable; retry shortly',
        code: 'UPSTREAM_UNAVAILABLE',
      });
    },
  );

  it('when it is a bug, then it is still the 500 of API.md', async () => {
    const response = await app.inject({ url: '/fail/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL' });
  });
});
