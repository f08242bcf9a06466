import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { isExclusionViolation, prismaAdapter } from '@app/service-kit';
import type { RunningService } from '@app/service-testing';
import type { Config } from '../../src/config.js';
import { Prisma, PrismaClient } from '../../src/generated/prisma/client.js';
import { SCHEMA } from '../../src/service.js';
import { startBookings } from '../support/harness.js';

/**
 * How Prisma 7 with adapter-pg really reports the two constraint violations the service maps
 * (found by experiment, pinned here so an upgrade that changes the shape fails loudly).
 */
describe('constraint violations through Prisma 7 + adapter-pg', () => {
  let running: RunningService<Config>;
  let prisma: PrismaClient;
  const scheduleId = randomUUID();
  const row = (start: string, end: string, status = 'PENDING') => ({
    id: randomUUID(),
    organizationId: randomUUID(),
    scheduleId,
    startTime: new Date(start),
    endTime: new Date(end),
    status,
    attendeeName: 'A',
    attendeeEmail: 'a@example.com',
  });
  const caught = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  beforeAll(async () => {
    running = await startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_constraints` });
    prisma = new PrismaClient({ adapter: prismaAdapter(running.infra.pool, SCHEMA) });
    await prisma.booking.create({ data: row('2031-01-01T10:00:00Z', '2031-01-01T11:00:00Z') });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await running.stop();
  });

  it('when the model API inserts an overlap, then it is a known request error P2039 whose driver cause is 23P01', async () => {
    const error = await caught(prisma.booking.create({ data: row('2031-01-01T10:30:00Z', '2031-01-01T11:30:00Z') }));
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect(error).toMatchObject({
      code: 'P2039',
      meta: {
        driverAdapterError: {
          cause: { originalCode: '23P01', kind: 'postgres', originalMessage: expect.stringContaining('"bookings_no_overlap"') },
        },
      },
    });
    expect(isExclusionViolation(error, 'bookings_no_overlap')).toBe(true);
  });

  it('when raw SQL inserts an overlap, then it is P2010 with the same driver cause', async () => {
    const error = await caught(prisma.$executeRaw`
      INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, attendee_name, attendee_email)
      VALUES (${randomUUID()}::uuid, ${randomUUID()}::uuid, ${scheduleId}::uuid, '2031-01-01T09:30:00Z', '2031-01-01T10:01:00Z', 'A', 'a@example.com')`);
    expect(error).toMatchObject({ code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '23P01' } } } });
    expect(isExclusionViolation(error, 'bookings_no_overlap')).toBe(true);
  });

  it.each([
    ['touches the end', '2031-01-01T11:00:00Z', '2031-01-01T11:30:00Z', 'PENDING'],
    ['touches the start', '2031-01-01T09:00:00Z', '2031-01-01T10:00:00Z', 'PENDING'],
    ['overlaps but is CANCELLED', '2031-01-01T10:15:00Z', '2031-01-01T10:45:00Z', 'CANCELLED'],
    ['overlaps but is COMPLETED', '2031-01-01T10:15:00Z', '2031-01-01T10:45:00Z', 'COMPLETED'],
  ])('when a booking %s, then the constraint lets it in', async (_case, start, end, status) => {
    await expect(prisma.booking.create({ data: row(start, end, status) })).resolves.toMatchObject({ status });
  });

  it('when a refused statement fails, then its pool connection is kept (no reconnect per SLOT_TAKEN)', async () => {
    let connects = 0;
    const count = () => void (connects += 1);
    running.infra.pool.on('connect', count);
    try {
      for (let i = 0; i < 5; i += 1) {
        const error = await caught(prisma.booking.create({ data: row('2031-01-01T10:00:00Z', '2031-01-01T10:30:00Z') }));
        expect(isExclusionViolation(error, 'bookings_no_overlap')).toBe(true);
      }
    } finally {
      running.infra.pool.off('connect', count);
    }
    expect(connects).toBe(0);
  });
});
