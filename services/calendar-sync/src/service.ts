import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { OutboxRelay, prismaAdapter, serviceContext, systemResolve, type Resolve, type ServiceDefinition } from '@app/service-kit';
import type { Dispatcher } from 'undici';
import { buildApp } from './app.js';
import { BookingsClient } from './clients/bookings.client.js';
import { SchedulingClient } from './clients/scheduling.client.js';
import { microsoftEndpoints, TUNING, type Config, type Tuning } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { googleCalendarReader } from './clients/google-calendar.client.js';
import { icsCalendarReader } from './clients/ics-calendar.client.js';
import { FeedFetcher } from './clients/ics-feed.client.js';
import { googleCalendarWriter } from './clients/google-calendar-writer.js';
import type { CalendarWriter } from './clients/calendar-writer.js';
import { MicrosoftTokenClient } from './clients/microsoft-token.client.js';
import { googleOAuth, microsoftOAuth } from './clients/oauth-providers.js';
import { outlookCalendarReader } from './clients/outlook-calendar.client.js';
import { outlookCalendarWriter } from './clients/outlook-calendar-writer.js';
import type { RetrySettings } from './clients/provider-retry.js';
import { keyRingFrom, stateSecretFrom } from './domain/secrets.js';
import { bookingsConsumer } from './bookings.consumer.js';
import { SyncLoop } from './workers/sync.worker.js';
import { WriteBackLoop } from './workers/write-back.worker.js';
import type { OAuthCalendarProvider } from '@app/contracts';
import type { UseCaseContext } from './use-cases/context.js';

export const SCHEMA = 'calendar_sync';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** What tests change of the network ICS feeds are read over: the resolver (a name with a private address) and the agent. */
export interface IcsNetwork {
  resolve?: Resolve;
  /** Replaces the guarded agent of feed requests (the create and redirect checks still use `resolve`). */
  dispatcher?: Dispatcher;
}

/**
 * calendar-sync, with the tuning's constants unless a test gives its own values (fast retries, more syncs at once),
 * the system's resolver unless a test gives its own, and the clock (a test of DST changes moves it to one).
 */
export function createServiceDefinition({
  tuning: overrides = {},
  ics = {},
  now,
}: { tuning?: Partial<Tuning>; ics?: IcsNetwork; now?: () => Date } = {}): ServiceDefinition<Config> {
  const tuning: Tuning = { ...TUNING, ...overrides };
  const resolve = ics.resolve ?? systemResolve;
  return {
    name: 'calendar-sync',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    async build(infra) {
      const { config } = infra;
      const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
      const relay = new OutboxRelay({ pool: infra.pool, bus: infra.bus, stream: NATS_TOPOLOGY['calendar-sync'].publishes });
      const retry: RetrySettings = {
        attempts: tuning.requestAttempts,
        baseMs: tuning.retryBaseMs,
        maxWaitMs: tuning.retryMaxWaitMs,
      };
      const timeoutMs = tuning.httpTimeoutMs;
      const microsoftTokens = new MicrosoftTokenClient({
        tokenUrl: microsoftEndpoints(config).tokenUrl,
        clientId: config.MICROSOFT_CLIENT_ID,
        clientSecret: config.MICROSOFT_CLIENT_SECRET,
        timeoutMs,
      });
      const icsPolicy = { allowHttp: config.CALENDAR_ICS_ALLOW_HTTP, allowPrivateTargets: config.CALENDAR_ICS_ALLOW_PRIVATE_TARGETS };
      const feeds = new FeedFetcher({
        policy: icsPolicy,
        resolve,
        timeoutMs,
        maxBytes: config.CALENDAR_ICS_MAX_BYTES,
        maxRedirects: tuning.icsMaxRedirects,
        dispatcher: ics.dispatcher,
      });
      const google = {
        apiUrl: config.GOOGLE_API_URL,
        tokenUrl: config.GOOGLE_TOKEN_URL,
        clientId: config.GOOGLE_CLIENT_ID,
        clientSecret: config.GOOGLE_CLIENT_SECRET,
        timeoutMs,
        retry,
      };
      // Write-back per provider, each request tried once: the write-back use case tries the whole step again (looking
      // for the event before making one), which a writer's own retries would multiply.
      const writeOnce = { ...retry, attempts: 1 };
      const writers: Record<OAuthCalendarProvider, CalendarWriter> = {
        google: googleCalendarWriter({ ...google, retry: writeOnce }),
        outlook: outlookCalendarWriter({ graphUrl: config.GRAPH_API_URL, tokens: microsoftTokens, timeoutMs, retry: writeOnce }),
      };
      const ctx: UseCaseContext = {
        ...serviceContext(infra, relay, now),
        prisma,
        scheduling: new SchedulingClient(infra.bus),
        bookings: new BookingsClient(infra.bus),
        publicBaseUrl: config.PUBLIC_BASE_URL,
        ring: keyRingFrom(config),
        stateSecret: stateSecretFrom(config),
        oauth: { google: googleOAuth(config, timeoutMs), outlook: microsoftOAuth(config, timeoutMs) },
        readers: {
          google: googleCalendarReader(google),
          outlook: outlookCalendarReader({ graphUrl: config.GRAPH_API_URL, tokens: microsoftTokens, timeoutMs, retry }),
        },
        icsReader: icsCalendarReader({ fetcher: feeds, retry, maxOccurrencesPerEvent: tuning.icsMaxOccurrences }),
        icsTargets: { policy: icsPolicy, resolve },
        syncPolicy: { intervalMs: config.CALENDAR_SYNC_INTERVAL_MS, random: Math.random },
        wakeSync: () => sync.wake(),
        syncOutcomes: infra.metrics.counter(
          'calendar_sync_outcomes_total',
          'Finished calendar syncs by provider and outcome (ok, partial: some calendars unreadable, failed, reauth, retry_later)',
          ['provider', 'outcome'],
        ),
        writers,
        writeRetry: retry,
        writePolicy: { baseMs: tuning.writeRetryBaseMs, capMs: tuning.writeRetryCapMs, random: Math.random },
        writeOutcomes: infra.metrics.counter(
          'calendar_write_outcomes_total',
          'Finished write-back attempts by provider and outcome (done, failed, retry_later, reauth)',
          ['provider', 'outcome'],
        ),
      };
      const sync = new SyncLoop(ctx, {
        concurrency: tuning.syncConcurrency,
        pollMs: config.CALENDAR_SYNC_POLL_MS,
        leaseMs: tuning.syncLeaseMs,
      });
      const writes = new WriteBackLoop(ctx, {
        concurrency: tuning.writeConcurrency,
        pollMs: config.CALENDAR_SYNC_POLL_MS,
        leaseMs: tuning.writeLeaseMs,
      });
      const bookings = bookingsConsumer({
        bus: infra.bus,
        pool: infra.pool,
        wakeWrites: () => writes.wake(),
        retry: infra.tuning.consumerRetry,
      });
      const app = await buildApp({ log: infra.log, readiness: infra.readiness, ctx });
      const close = async () => {
        await feeds.close();
        await prisma.$disconnect();
      };
      return { app, background: [relay, sync, bookings, writes], close };
    },
  };
}

export const service = createServiceDefinition();
