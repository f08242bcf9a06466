import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { OutboxRelay, prismaAdapter, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import { connectRateLimitRedis } from './auth/rate-limit-redis.js';
import { TUNING, type Config, type Tuning } from './config.js';
import { IdentityRepository } from './identity/identity.repository.js';
import { PrismaClient } from './generated/prisma/client.js';

export const SCHEMA = 'identity';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** The gateway, with the tuning's constants unless a test gives its own values (a faster replica probe). */
export function createServiceDefinition({ tuning = {} }: { tuning?: Partial<Tuning> } = {}): ServiceDefinition<Config> {
  return {
    name: 'gateway',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    async build(infra) {
      const url = infra.config.RATE_LIMIT_REDIS_URL;
      const redis = url === undefined ? undefined : await connectRateLimitRedis(url, infra.log);
      const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
      // The keys' creations and revocations leave through the outbox (API.md: api_key.created / api_key.revoked).
      const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: NATS_TOPOLOGY.gateway.publishes });
      const app = await buildApp({
        config: infra.config,
        identity: new IdentityRepository(prisma, infra.pool, relay),
        log: infra.log,
        readiness: infra.readiness,
        redis,
        tuning: { ...TUNING, ...tuning },
      });
      return {
        app,
        background: [relay],
        close: async () => {
          await prisma.$disconnect();
          redis?.disconnect();
        },
      };
    },
  };
}

export const service = createServiceDefinition();
