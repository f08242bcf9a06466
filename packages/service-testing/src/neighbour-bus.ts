import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { EventContract, ServiceTopology } from '@app/contracts';
import type { z } from 'zod';
import { type BaseConfig, baseConfigFields, Bus, createLogger, streamLimitsOf } from '@app/service-kit';
import { TEST_STREAM_MAX_BYTES } from './test-config.js';

/**
 * A bus on a service's NATS and prefix that plays its neighbours: asks the requests the service answers and
 * publishes the events it consumes, which the service's own bus refuses (its topology lists neither). With
 * `streams`, it first creates them, as their publishers would: a consumer waits for its stream and never makes it.
 */
export async function neighbourBus(
  config: Pick<BaseConfig, 'NATS_URL' | 'NATS_PREFIX' | 'LOG_LEVEL'> &
    Partial<Pick<BaseConfig, 'NATS_STREAM_MAX_AGE_HOURS' | 'NATS_STREAM_MAX_BYTES'>>,
  streams: readonly { name: string; subjects: readonly string[] }[] = [],
): Promise<Bus> {
  const log = createLogger({ LOG_LEVEL: config.LOG_LEVEL }, 'test-neighbour');
  const bus = await Bus.connect({
    url: config.NATS_URL,
    prefix: config.NATS_PREFIX,
    service: 'test-neighbour',
    requestTimeoutMs: 2000,
    // The streams it creates are those the publisher's relay would make: the service's limits when its config is
    // given, else those of testEnv (the config's max_age, small streams).
    streamLimits: streamLimitsOf(
      baseConfigFields
        .pick({ NATS_STREAM_MAX_AGE_HOURS: true, NATS_STREAM_MAX_BYTES: true })
        .parse({ NATS_STREAM_MAX_BYTES: TEST_STREAM_MAX_BYTES, ...config }),
    ),
    log,
  });
  for (const stream of streams) await bus.ensureStream(stream);
  return bus;
}

/**
 * A service that consumes other services' streams, started with a neighbour bus on its NATS prefix: the streams of
 * `consumes` (its topology's) exist before it starts, as once their publishers have run. Stopping it closes the bus
 * too; a start that fails closes it at once.
 */
export async function withNeighbourBus<R extends { stop(): Promise<void> }>(
  natsPrefix: string,
  consumes: ServiceTopology['consumes'],
  start: () => Promise<R>,
): Promise<R & { neighbour: Bus }> {
  const consumed = Object.values(consumes).map((consumer) => consumer.stream);
  const neighbour = await neighbourBus({ NATS_URL: inject('natsUrl'), NATS_PREFIX: natsPrefix, LOG_LEVEL: 'silent' }, consumed);
  const running = await start().catch(async (error: unknown) => {
    await neighbour.close();
    throw error;
  });
  return {
    ...running,
    neighbour,
    async stop() {
      await running.stop();
      await neighbour.close();
    },
  };
}

/**
 * Publishes a domain event as its producer's outbox relay would (the envelope, msgID = event id); returns the id.
 * `data` is not parsed by the contract, so a test can also send what a consumer must refuse.
 */
export async function publishDomainEvent<D extends z.ZodType>(
  neighbour: Bus,
  contract: EventContract<D>,
  data: z.input<D>,
  options: { organizationId: string; id?: string },
): Promise<string> {
  const id = options.id ?? randomUUID();
  const envelope = {
    id,
    type: contract.subject,
    schema_version: contract.version,
    occurred_at: new Date().toISOString(),
    organization_id: options.organizationId,
    correlation_id: null,
    data,
  };
  await neighbour.publish(contract.subject, envelope, id);
  return id;
}
