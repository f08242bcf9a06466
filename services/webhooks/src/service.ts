import { fileURLToPath } from 'node:url';
import { NATS_TOPOLOGY } from '@app/contracts';
import { prismaAdapter, serviceContext, systemResolve, type Resolve, type ServiceDefinition } from '@app/service-kit';
import { buildApp } from './app.js';
import { TUNING, type Config, type Tuning } from './config.js';
import { DeliveryLoop } from './workers/delivery.worker.js';
import { WebhookSender } from './clients/webhook-sender.client.js';
import { PrismaClient } from './generated/prisma/client.js';
import { domainEventConsumers } from './handlers/domain-events.consumer.js';
import { FeedIngester } from './handlers/feed-ingest.consumer.js';
import { FeedFrontier } from './workers/feed-frontier.worker.js';
import { FEED_ITEMS_RETENTION } from './db/feed-ingest.repository.js';
import type { UseCaseContext } from './use-cases/context.js';

export const SCHEMA = 'webhooks';
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** Publishes no events: use cases that would wake an outbox relay have none to wake. */
const NO_RELAY = { wake() {} };

/**
 * The service with an injectable resolver (tests make a name resolve to a private address), and the tuning's constants
 * unless a test gives its own values (a quicker poll).
 */
export function createServiceDefinition({
  resolve = systemResolve,
  tuning: overrides = {},
}: { resolve?: Resolve; tuning?: Partial<Tuning> } = {}): ServiceDefinition<Config> {
  const tuning: Tuning = { ...TUNING, ...overrides };
  return {
    name: 'webhooks',
    schema: SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
    async build(infra) {
      const { config } = infra;
      const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
      const readers = Object.values(NATS_TOPOLOGY.webhooks.reads);
      const storedBatches = infra.metrics.counter('change_feed_stored_batches_total', 'Batches the change feed stored, by stream', [
        'stream',
      ]);
      const storedMessages = infra.metrics.counter(
        'change_feed_stored_messages_total',
        'Stream messages the change feed stored (in those batches), by stream',
        ['stream'],
      );
      const countBatch = (stream: string, messages: number) => {
        storedBatches.inc({ stream });
        storedMessages.inc({ stream }, messages);
      };
      const frontier = new FeedFrontier({ pool: infra.pool, bus: infra.bus, streams: readers.map((reader) => reader.stream) });
      const ingesters = readers.map(
        (reader) =>
          new FeedIngester({ bus: infra.bus, pool: infra.pool, reader, feed: frontier, lingerMs: tuning.feedLingerMs, countBatch }),
      );
      frontier.onDemand(() => ingesters.forEach((ingester) => ingester.hurry()));
      const targets = { allowHttp: config.WEBHOOKS_ALLOW_HTTP, allowPrivateTargets: config.WEBHOOKS_ALLOW_PRIVATE_TARGETS };
      const ctx: UseCaseContext = {
        ...serviceContext(infra, NO_RELAY),
        prisma,
        targets,
        resolve,
        wakeDeliveries: () => deliveries.deliveriesWritten(),
        attemptOutcomes: infra.metrics.counter(
          'webhook_delivery_attempts_total',
          'Webhook delivery attempts by outcome (succeeded; retry: failed, another is scheduled; failed: the last one failed)',
          ['outcome'],
        ),
        feed: frontier,
        feedStreams: frontier.streamNames,
      };
      const sender = new WebhookSender({
        timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
        policy: targets,
        resolve,
        connectionsPerOrigin: tuning.endpointConcurrency,
      });
      const deliveries = new DeliveryLoop(ctx, sender, {
        concurrency: config.WEBHOOKS_CONCURRENCY,
        endpointConcurrency: tuning.endpointConcurrency,
        pollMs: tuning.pollMs,
        timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
        retryScheduleMs: config.WEBHOOKS_RETRY_SCHEDULE_MS,
        disableAfterMs: config.WEBHOOKS_DISABLE_AFTER_MS,
      });
      const app = await buildApp({ log: infra.log, readiness: infra.readiness, ctx });
      return {
        app,
        background: [
          ...domainEventConsumers(infra.bus, infra.pool, ctx.wakeDeliveries, infra.tuning.consumerRetry),
          deliveries,
          frontier,
          ...ingesters,
        ],
        // API.md keeps at least 30 days of the change feed; the kit's sweep deletes what is older.
        retention: [FEED_ITEMS_RETENTION],
        close: () => prisma.$disconnect(),
      };
    },
  };
}

export const service = createServiceDefinition();
