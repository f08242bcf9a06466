import { fileURLToPath } from 'node:url';
import { BOOKINGS_STREAM } from '@app/contracts';
import { OutboxRelay, PgDb, prismaAdapter, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import { UpstreamChecks } from './clients/upstream-checks.js';
import type { Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

export const SCHEMA = 'bookings';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export const service: ServiceDefinition<Config> = {
  name: 'bookings',
  schema: SCHEMA,
  migrationsDir: MIGRATIONS_DIR,
  async build(infra) {
    const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
    const relay = new OutboxRelay({ db: new PgDb(infra.pool), bus: infra.bus, stream: BOOKINGS_STREAM });
    const context = {
      prisma,
      pool: infra.pool,
      upstream: new UpstreamChecks(infra.bus),
      wakeRelay: () => relay.wake(),
      now: () => new Date(),
    };
    const app = await buildApp({ log: infra.log, readiness: infra.readiness, context });
    return { app, background: [relay], close: () => prisma.$disconnect() };
  },
};
