import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prismaDatamodel, schemaDrift } from '@app/service-kit/testing';
import { SCHEMA } from '../src/service.js';
import { startEvents, type Running } from './support.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

describe('events service', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startEvents();
  });
  afterAll(() => running.stop());

  it('when started, then it is ready with database and NATS', async () => {
    const response = await running.app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', nats: 'ok' } });
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
