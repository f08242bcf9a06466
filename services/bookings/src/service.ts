import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { OutboxRelay, prismaAdapter, serviceContext, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import { serveRequests } from './handlers/booking-feed.handler.js';
import { EventsClient } from './clients/events.client.js';
import { SchedulingClient } from './clients/scheduling.client.js';
import type { Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { calendarEventsProjection } from './handlers/calendar-events.consumer.js';
import type { UseCaseContext } from './use-cases/context.js';

export const SCHEMA = 'bookings';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export const service: ServiceDefinition<Config> = {
  name: 'bookings',
  schema: SCHEMA,
  migrationsDir: MIGRATIONS_DIR,
  async build(infra) {
    const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
    const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: NATS_TOPOLOGY.bookings.publishes });
    const ctx: UseCaseContext = {
      ...serviceContext(infra, relay),
      prisma,
      scheduling: new SchedulingClient(infra.bus),
      events: new EventsClient(infra.bus),
    };
    await serveRequests(infra.bus, ctx);
    const app = await buildApp({ log: infra.log, readiness: infra.readiness, ctx });
    const calendarEvents = calendarEventsProjection(infra.bus, infra.pool, { retry: infra.tuning.consumerRetry });
    return { app, background: [relay, calendarEvents], close: () => prisma.$disconnect() };
  },
};
