import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { OutboxRelay, prismaAdapter, serviceContext, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import { SchedulingClient } from './clients/scheduling.client.js';
import { microsoftEndpoints, type Config } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { googleCalendarReader } from './clients/google-calendar.client.js';
import { MicrosoftTokenClient } from './clients/microsoft-token.client.js';
import { googleOAuth, microsoftOAuth } from './clients/oauth-providers.js';
import { outlookCalendarReader } from './clients/outlook-calendar.client.js';
import type { RetrySettings } from './clients/provider-retry.js';
import { keyRingFrom, stateSecretFrom } from './domain/secrets.js';
import { SyncLoop } from './sync.worker.js';
import type { UseCaseContext } from './use-cases/context.js';

export const SCHEMA = 'calendar_sync';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

const REQUEST_ATTEMPTS = 4;

export const service: ServiceDefinition<Config> = {
  name: 'calendar-sync',
  schema: SCHEMA,
  migrationsDir: MIGRATIONS_DIR,
  async build(infra) {
    const { config } = infra;
    const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
    const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: NATS_TOPOLOGY['calendar-sync'].publishes });
    const retry: RetrySettings = {
      attempts: REQUEST_ATTEMPTS,
      baseMs: config.CALENDAR_RETRY_BASE_MS,
      maxWaitMs: config.CALENDAR_RETRY_MAX_WAIT_MS,
    };
    const timeoutMs = config.CALENDAR_HTTP_TIMEOUT_MS;
    const microsoftTokens = new MicrosoftTokenClient({
      tokenUrl: microsoftEndpoints(config).tokenUrl,
      clientId: config.MICROSOFT_CLIENT_ID,
      clientSecret: config.MICROSOFT_CLIENT_SECRET,
      timeoutMs,
    });
    const ctx: UseCaseContext = {
      ...serviceContext(infra, relay),
      prisma,
      scheduling: new SchedulingClient(infra.bus),
      ring: keyRingFrom(config),
      stateSecret: stateSecretFrom(config),
      oauth: { google: googleOAuth(config), outlook: microsoftOAuth(config) },
      readers: {
        google: googleCalendarReader({
          apiUrl: config.GOOGLE_API_URL,
          tokenUrl: config.GOOGLE_TOKEN_URL,
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          timeoutMs,
          retry,
        }),
        outlook: outlookCalendarReader({ graphUrl: config.GRAPH_API_URL, tokens: microsoftTokens, timeoutMs, retry }),
      },
      syncPolicy: { intervalMs: config.CALENDAR_SYNC_INTERVAL_MS, random: Math.random },
      wakeSync: () => sync.wake(),
      syncOutcomes: infra.metrics.counter(
        'calendar_sync_outcomes_total',
        'Finished calendar syncs by provider and outcome (ok, partial: some calendars unreadable, failed, reauth, retry_later)',
        ['provider', 'outcome'],
      ),
    };
    const sync = new SyncLoop(ctx, {
      concurrency: config.CALENDAR_SYNC_CONCURRENCY,
      pollMs: config.CALENDAR_SYNC_POLL_MS,
      leaseMs: config.CALENDAR_SYNC_LEASE_MS,
    });
    const app = await buildApp({ log: infra.log, readiness: infra.readiness, ctx });
    return { app, background: [relay, sync], close: () => prisma.$disconnect() };
  },
};
