import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { createPool, prismaAdapter, serviceContext } from '@app/service-kit';
import { organizationHeaders, prismaDatamodel, schemaDrift, startedForTests } from '@app/service-testing';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { findSlots } from '../src/use-cases/slots.use-case.js';
import { SCHEMA } from '../src/service.js';
import { NOW, createSchedule, startScheduling } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

const running = startedForTests(startScheduling);

describe('scheduling service', () => {
  it('when started, then it is ready with database and NATS', async () => {
    const response = await running.app.inject({ url: '/readyz' });
    expect(response.json()).toEqual({ status: 'ok', checks: { accepting: 'ok', database: 'ok', nats: 'ok' } });
  });

  it('when the migrations have run, then the Prisma schema mirrors them', async () => {
    expect(await schemaDrift(running.infra.pool, SCHEMA, prismaDatamodel(PRISMA_SCHEMA))).toEqual([]);
  });

  it('when slots are generated, then the database is asked once (schedule and busy time together)', async () => {
    const schedule = await createSchedule(running, organizationHeaders());
    // A pool of the test's own, so the service's background work (relay, consumers) is not counted.
    const pool = createPool(inject('databaseUrl'), { max: 2, log: { warn: () => undefined }, schema: SCHEMA });
    const prisma = new PrismaClient({ adapter: prismaAdapter(pool, SCHEMA) });
    let queries = 0;
    pool.on('acquire', () => (queries += 1));
    const ctx = { ...serviceContext(running.infra, { wake: () => undefined }, () => NOW), prisma, pool };
    const slots = await findSlots(ctx, null, { scheduleId: schedule.id, startDate: '2026-03-02', endDate: '2026-03-16' });
    await prisma.$disconnect();
    await pool.end();
    expect(slots.days).toHaveLength(15);
    expect(queries).toBe(1);
  });

  it('when the OpenAPI document is asked, then it describes the schedules and slots paths', async () => {
    const response = await running.app.inject({ url: '/openapi.json' });
    expect(Object.keys(response.json<{ paths: object }>().paths)).toEqual(
      expect.arrayContaining(['/api/v1/schedules', '/api/v1/schedules/{id}', '/api/bookings/slots']),
    );
  });
});
