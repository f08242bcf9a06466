import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { prismaAdapter } from '@app/service-kit';
import type { RunningService } from '@app/service-kit/testing';
import { IdempotencySweeper } from '../../src/background/idempotency-sweeper.js';
import type { Config } from '../../src/config.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { SCHEMA } from '../../src/service.js';
import { startBookings } from '../support/stack.js';

describe('idempotency key sweeper', () => {
  let running: RunningService<Config>;
  let prisma: PrismaClient;
  beforeAll(async () => {
    running = await startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_sweeper` });
    prisma = new PrismaClient({ adapter: prismaAdapter(running.infra.pool, SCHEMA) });
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await running.stop();
  });

  it('when it sweeps, then keys older than 24 hours are deleted and younger ones kept', async () => {
    const organizationId = randomUUID();
    const entry = (key: string, hoursAgo: number) => ({
      organizationId,
      key,
      requestHash: 'h',
      statusCode: 201,
      responseBody: {},
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
    });
    await prisma.idempotencyKey.createMany({ data: [entry('old', 25), entry('young', 23)] });
    const deleted = await new IdempotencySweeper(prisma, running.infra.log).sweep();
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await prisma.idempotencyKey.findMany({ where: { organizationId } });
    expect(left.map((row) => row.key)).toEqual(['young']);
  });
});
