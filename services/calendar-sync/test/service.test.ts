import { fileURLToPath } from 'node:url';
import { prismaDatamodel, schemaDrift } from '@app/service-testing';
import { describe, expect, it } from 'vitest';
import { SCHEMA } from '../src/service.js';
import { calendarSyncSuite } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

const suite = calendarSyncSuite();

describe('calendar-sync service', () => {
  it('when started, then it is ready with database and NATS', async () => {
    const response = await suite.running.app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ok', checks: { accepting: 'ok', database: 'ok', nats: 'ok' } });
  });

  it('when migrated, then the Prisma schema mirrors the tables', async () => {
    expect(await schemaDrift(suite.running.infra.pool, SCHEMA, prismaDatamodel(PRISMA_SCHEMA))).toEqual([]);
  });

  it('when the OpenAPI document is asked for, then it lists every calendar connection route', async () => {
    const paths = Object.keys((await suite.running.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/calendar-connections',
        '/api/v1/calendar-connections/{id}',
        '/api/v1/calendar-connections/{id}/sync',
        '/api/v1/calendar-connections/oauth/{provider}/authorize',
        '/api/calendar-connections/oauth/{provider}/callback',
      ]),
    );
  });
});
