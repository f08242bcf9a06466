import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { OutboxRelay, prismaAdapter, serviceContext, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { serveEventTypeGet } from './event-type-get.handler.js';
import type { UseCaseContext } from './use-cases/context.js';

export const SCHEMA = 'events';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export const service: ServiceDefinition<Config> = {
  name: 'events',
  schema: SCHEMA,
  migrationsDir: MIGRATIONS_DIR,
  async build(infra) {
    const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
    const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: NATS_TOPOLOGY.events.publishes });
    const ctx: UseCaseContext = { ...serviceContext(infra, relay), prisma };
    await serveEventTypeGet(infra.bus, ctx);
    const app = await buildApp({ log: infra.log, readiness: infra.readiness, ctx });
    return { app, background: [relay], close: () => prisma.$disconnect() };
  },
};
