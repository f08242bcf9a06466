import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { NATS_TOPOLOGY, type EventContract, type StreamContract } from '@app/contracts';
import { createLogger, createPool, migrate, OutboxRelay, recordEvent, withTransaction, type Bus, type Queryable } from '@app/service-kit';
import { neighbourBus } from '@app/service-testing';
import type pg from 'pg';
import type { z } from 'zod';

/** The public streams, as the webhooks service reads them. */
const STREAMS = Object.values(NATS_TOPOLOGY.webhooks.reads).map((reader) => reader.stream);

interface Producer {
  stream: StreamContract;
  pool: pg.Pool;
  relay: OutboxRelay;
}

/** One event to record: its contract, data and organization. */
export interface Recorded<D extends z.ZodType = z.ZodType> {
  contract: EventContract<D>;
  data: z.input<D>;
  organizationId: string;
}

/**
 * The webhooks service's neighbours as they really publish: for each public stream, an outbox in a schema of its own
 * (the kit's migrations) on the run's database, and the kit's relay publishing it on the neighbour bus, with the
 * events' feed positions and the stream's watermark when the feed asks. An event is recorded in a transaction, as a
 * producing service records its change's event.
 */
export class FeedProducers {
  private constructor(
    private readonly bus: Bus,
    private readonly producers: Map<string, Producer>,
  ) {}

  /** The producers on `natsPrefix` (the webhooks instance's), on a bus of their own: they outlive its restarts. */
  static async start(natsPrefix: string): Promise<FeedProducers> {
    const databaseUrl = inject('databaseUrl');
    const neighbour = await neighbourBus({ NATS_URL: inject('natsUrl'), NATS_PREFIX: natsPrefix, LOG_LEVEL: 'silent' });
    const log = createLogger({ LOG_LEVEL: 'silent' }, 'test-producer');
    const producers = new Map<string, Producer>();
    for (const stream of STREAMS) {
      const schema = `producer_${stream.name.toLowerCase()}_${randomBytes(3).toString('hex')}`;
      await migrate({ databaseUrl, schema, dir: mkdtempSync(join(tmpdir(), 'no-migrations-')) });
      const pool = createPool(databaseUrl, { max: 6, log, schema });
      const relay = new OutboxRelay({ pool, bus: neighbour, stream, pollMs: 50 });
      await relay.start();
      producers.set(stream.name, { stream, pool, relay });
    }
    return new FeedProducers(neighbour, producers);
  }

  /** Records one event in its stream's outbox, in a transaction of its own; returns its id. */
  async record<D extends z.ZodType>(contract: EventContract<D>, data: z.input<D>, organizationId: string): Promise<string> {
    const [id] = await this.recordTogether([{ contract, data, organizationId }]);
    return id ?? '';
  }

  /** Records events of one stream in one transaction (in this order); returns their ids. */
  async recordTogether(events: readonly Recorded[]): Promise<string[]> {
    const first = events[0];
    if (!first) return [];
    const producer = this.producerOf(first.contract);
    const ids = await withTransaction(producer.pool, async (tx) => {
      const written: string[] = [];
      for (const event of events)
        written.push((await recordEvent(tx, event.contract, event.data, { organizationId: event.organizationId })).id);
      return written;
    });
    producer.relay.wake();
    return ids;
  }

  /** Runs `write` in a transaction of `contract`'s outbox (a test that holds a transaction open). */
  transaction<T>(contract: EventContract<z.ZodType>, write: (tx: Queryable) => Promise<T>): Promise<T> {
    const producer = this.producerOf(contract);
    return withTransaction(producer.pool, write).finally(() => producer.relay.wake());
  }

  /**
   * The stream of `contract` deleted and made again (a new JetStream store under the same name): its relay is stopped,
   * the stream deleted, and the relay started again, which creates it anew; its sequences start over.
   */
  async recreateStream(contract: EventContract<z.ZodType>): Promise<void> {
    const producer = this.producerOf(contract);
    await producer.relay.stop();
    await this.bus.jsm.streams.delete(this.bus.streamName(producer.stream.name));
    producer.relay = new OutboxRelay({ pool: producer.pool, bus: this.bus, stream: producer.stream, pollMs: 50 });
    await producer.relay.start();
  }

  async stop(): Promise<void> {
    for (const producer of this.producers.values()) {
      await producer.relay.stop();
      await producer.pool.end();
    }
    await this.bus.close();
  }

  private producerOf(contract: EventContract<z.ZodType>): Producer {
    const producer = [...this.producers.values()].find((candidate) => candidate.stream.events.includes(contract));
    if (!producer) throw new Error(`${contract.subject} is in no public stream`);
    return producer;
  }
}
