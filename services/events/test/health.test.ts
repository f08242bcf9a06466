import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { organizationHeaders, prismaDatamodel, schemaDrift, startedForTests } from '@app/service-testing';
import { SCHEMA } from '../src/service.js';
import { startEvents } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

describe('events service', () => {
  const running = startedForTests(startEvents);

  it('when started, then it is ready with database and NATS', async () => {
    const response = await running.app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ok', checks: { accepting: 'ok', database: 'ok', nats: 'ok' } });
  });

  it('when draining before a shutdown, then /readyz says 503 while requests are still served', async () => {
    const draining = await startEvents();
    try {
      const drained = draining.drain(50);
      const ready = await draining.app.inject({ url: '/readyz' });
      const served = await draining.app.inject({ url: '/api/v1/event-types', headers: organizationHeaders(randomUUID()) });
      await drained;
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', checks: { accepting: 'unavailable', database: 'ok', nats: 'ok' } });
      expect(served.statusCode).toBe(200);
    } finally {
      await draining.stop();
    }
  });

  it('when migrated, then the Prisma schema mirrors the tables', async () => {
    expect(await schemaDrift(running.infra.pool, SCHEMA, prismaDatamodel(PRISMA_SCHEMA))).toEqual([]);
  });

  it('when asked, then the OpenAPI document lists every endpoint', async () => {
    const document = (await running.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/event-types',
        '/api/v1/event-types/{id}',
        '/api/v1/events',
        '/api/v1/events/{id}',
        '/api/v1/events/{id}/registrations',
        '/api/v1/events/{id}/registrations/{registrationId}',
      ]),
    );
  });
});
