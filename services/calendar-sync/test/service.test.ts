import { fileURLToPath } from 'node:url';
import { prismaDatamodel, schemaDrift, type RunningService } from '@app/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { SCHEMA } from '../src/service.js';
import { FakeProviders } from './support/fake-providers.js';
import { FileDatabase, startCalendarSync } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

const fake = new FakeProviders();
const database = FileDatabase.create();
let running: RunningService<Config>;

beforeAll(async () => {
  await fake.start();
  running = await startCalendarSync(fake, database);
});
afterAll(async () => {
  await running.stop();
  await fake.stop();
  await database.drop();
});

describe('calendar-sync service', () => {
  it('when started, then it is ready with database and NATS', async () => {
    const response = await running.app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ok', checks: { accepting: 'ok', database: 'ok', nats: 'ok' } });
  });

  it('when migrated, then the Prisma schema mirrors the tables', async () => {
    expect(await schemaDrift(running.infra.pool, SCHEMA, prismaDatamodel(PRISMA_SCHEMA))).toEqual([]);
  });

  it('when the OpenAPI document is asked for, then it lists every calendar connection route', async () => {
    const paths = Object.keys((await running.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, unknown> }>().paths);
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
