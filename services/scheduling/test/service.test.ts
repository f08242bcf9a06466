import { describe, expect, inject, it } from 'vitest';
import { createPool, prismaAdapter, serviceContext } from '@app/service-kit';
import { describeServiceBasics, organizationHeaders, startedForTests } from '@app/service-testing';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { findSlots } from '../src/use-cases/slots.use-case.js';
import { SCHEMA } from '../src/service.js';
import { NOW, createSchedule, startScheduling } from './support/harness.js';

const running = startedForTests(startScheduling);

describe('scheduling service', () => {
  describeServiceBasics({
    running: () => running,
    schema: SCHEMA,
    prismaSchema: new URL('../prisma/schema.prisma', import.meta.url),
    paths: ['/api/v1/schedules', '/api/v1/schedules/{id}', '/api/bookings/slots'],
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
});
