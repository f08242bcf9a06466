import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeServiceBasics, organizationHeaders, startedForTests } from '@app/service-testing';
import { SCHEMA } from '../src/service.js';
import { startEvents } from './support/harness.js';

describe('events service', () => {
  const running = startedForTests(startEvents);

  describeServiceBasics({
    running: () => running,
    schema: SCHEMA,
    prismaSchema: new URL('../prisma/schema.prisma', import.meta.url),
    paths: [
      '/api/v1/event-types',
      '/api/v1/event-types/{id}',
      '/api/v1/events',
      '/api/v1/events/{id}',
      '/api/v1/events/{id}/registrations',
      '/api/v1/events/{id}/registrations/{registrationId}',
      '/api/v1/events/{id}/ticket-types',
      '/api/v1/events/{id}/ticket-types/{ticketTypeId}',
    ],
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
});
