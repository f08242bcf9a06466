import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { OutboxRelay, prismaAdapter, serviceContext, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { bookingsProjection, calendarProjection, eventTypesProjection } from './handlers/projections.consumer.js';
import { serveRequests } from './handlers/requests.handler.js';
import type { UseCaseContext } from './use-cases/context.js';

export const SCHEMA = 'scheduling';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** The service with an injectable clock (tests pin `now` for minimum notice and default dates). */
export function createServiceDefinition({ now = () => new Date() }: { now?: () => Date } = {}): ServiceDefinition<Config> {
  return {
    name: 'scheduling',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    async build(infra) {
      const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
      // Relay and projections only send SQL: straight over the pool, not through Prisma.
      const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: NATS_TOPOLOGY.scheduling.publishes });
      const ctx: UseCaseContext = { ...serviceContext(infra, relay, now), prisma };
      await serveRequests(infra.bus, ctx);
      const app = await buildApp({ log: infra.log, readiness: infra.readiness, ctx });
      const tuning = { retry: infra.tuning.consumerRetry };
      return {
        app,
        background: [
          relay,
          bookingsProjection(infra.bus, infra.pool, tuning),
          calendarProjection(infra.bus, infra.pool, tuning),
          eventTypesProjection(infra.bus, infra.pool, tuning),
        ],
        close: () => prisma.$disconnect(),
      };
    },
  };
}

export const service = createServiceDefinition();
