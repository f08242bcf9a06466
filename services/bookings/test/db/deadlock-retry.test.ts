import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { isRetryableConflict, prismaAdapter } from '@app/service-kit';
import type { RunningService } from '@app/service-testing';
import type { Config } from '../../src/config.js';
import { retryOnDeadlock } from '../../src/db/deadlock-retry.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { SCHEMA } from '../../src/service.js';
import { startBookings } from '../support/harness.js';

/** A real deadlock between a plain connection and a Prisma transaction, with the Prisma side as the victim. */
describe('retryOnDeadlock', () => {
  let running: RunningService<Config>;
  let prisma: PrismaClient;
  const first = randomUUID();
  const second = randomUUID();

  beforeAll(async () => {
    running = await startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_deadlock` });
    prisma = new PrismaClient({ adapter: prismaAdapter(running.infra.pool, SCHEMA) });
    for (const [id, hour] of [
      [first, 9],
      [second, 10],
    ] as const) {
      await running.infra.pool.query(
        `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, attendee_name, attendee_email)
         VALUES ($1, gen_random_uuid(), gen_random_uuid(), $2, $3, 'A', 'a@example.com')`,
        [id, `2033-01-01T0${hour - 1}:00:00Z`, `2033-01-01T0${hour - 1}:30:00Z`],
      );
    }
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await running.stop();
  });

  it('when the first attempt is chosen as deadlock victim, then the write runs again and succeeds', async () => {
    // A superuser's connection: deadlock_timeout may be set only by one (the service's role may not).
    const other = new pg.Client({ connectionString: inject('databaseUrl'), options: `-c search_path=${SCHEMA}` });
    await other.connect();
    let attempts = 0;
    const errors: unknown[] = [];
    try {
      // The other side detects deadlocks late, so the Prisma transaction is the one Postgres aborts.
      await other.query(`BEGIN; SET LOCAL deadlock_timeout = '10s'`);
      await other.query('SELECT id FROM bookings WHERE id = $1 FOR UPDATE', [first]);
      let otherBlocked: Promise<unknown> = Promise.resolve();
      const result = await retryOnDeadlock(async () => {
        attempts += 1;
        try {
          return await prisma.$transaction(async (tx) => {
            await tx.$queryRaw`SELECT id FROM bookings WHERE id = ${second}::uuid FOR UPDATE`;
            if (attempts === 1) {
              otherBlocked = other.query('SELECT id FROM bookings WHERE id = $1 FOR UPDATE', [second]);
              await tx.$executeRaw`SELECT pg_sleep(0.2)`;
            }
            await tx.$queryRaw`SELECT id FROM bookings WHERE id = ${first}::uuid FOR UPDATE`;
            return 'written';
          });
        } catch (error) {
          errors.push(error);
          if (attempts === 1) void otherBlocked.then(() => other.query('COMMIT'));
          throw error;
        }
      });
      expect(result).toBe('written');
      expect(attempts).toBe(2);
      expect(errors).toHaveLength(1);
      expect(isRetryableConflict(errors[0])).toBe(true);
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      await other.end();
    }
  });

  it('when the error is not a conflict, then it is not retried', async () => {
    let attempts = 0;
    await expect(
      retryOnDeadlock(async () => {
        attempts += 1;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(attempts).toBe(1);
  });
});
