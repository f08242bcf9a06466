import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineStream } from '@app/contracts';
import {
  baseConfigSchema,
  buildService,
  loadConfig,
  OutboxRelay,
  RetentionSweeper,
  startService,
  type BaseConfig,
  type Bus,
  type ServiceDefinition,
  type StreamLimits,
} from '../src/index.js';
import { testEnv } from '@app/service-testing';
import { eventually, kitBus, kitSchema, silentLog } from './support/kit-env.js';

const thingCreated = defineEvent('kit.thing.created', z.object({ name: z.string() }));
const STREAM = defineStream('KIT_RETENTION', [thingCreated]);
const HOUR_NS = 3_600_000_000_000;
const LIMITS: StreamLimits = { maxAgeMs: 3 * 3_600_000, maxBytes: 8 * 1024 * 1024 };

describe('stream limits', () => {
  const buses: Bus[] = [];
  const newPrefix = () => `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`;
  const connect = async (prefix: string, streamLimits?: StreamLimits) => {
    const bus = await kitBus({ prefix, ...(streamLimits && { streamLimits }) });
    buses.push(bus);
    return bus;
  };
  afterAll(async () => {
    for (const bus of buses) {
      await bus.jsm.streams.delete(bus.streamName(STREAM.name)).catch(() => undefined);
      await bus.close();
    }
  });

  it('when the relay creates its stream, then the stream carries the configured max_age, max_bytes and duplicate window', async () => {
    const bus = await connect(newPrefix(), LIMITS);
    const schema = await kitSchema();
    const relay = new OutboxRelay({ pool: schema.pool, bus, stream: STREAM, pollMs: 60_000 });
    await relay.start();
    await relay.stop();
    await schema.close();
    const { config } = await bus.jsm.streams.info(bus.streamName(STREAM.name));
    expect(config).toMatchObject({ max_age: 3 * HOUR_NS, max_bytes: 8 * 1024 * 1024, duplicate_window: 120_000_000_000, num_replicas: 1 });
  });

  it("when NATS_URL lists a cluster's servers and one does not answer, then the bus connects through another", async () => {
    const { port } = new URL(inject('natsUrl').replace(/^nats:/, 'http:'));
    // Port 1 refuses at once; the client tries the servers of the list (in random order) until one answers.
    const bus = await kitBus({ url: `nats://127.0.0.1:1, nats://127.0.0.1:${port}` });
    buses.push(bus);
    expect(bus.nc.getServer()).toBe(`127.0.0.1:${port}`);
  });

  it('when the stream exists without limits, then ensureStream gives it the configured ones and keeps its subjects', async () => {
    const bus = await connect(newPrefix(), LIMITS);
    const name = bus.streamName(STREAM.name);
    const subjects = STREAM.subjects.map((subject) => bus.subject(subject));
    await bus.jsm.streams.add({ name, subjects });
    expect((await bus.jsm.streams.info(name)).config).toMatchObject({ max_age: 0, max_bytes: -1 });
    await bus.ensureStream(STREAM);
    const { config } = await bus.jsm.streams.info(name);
    expect(config).toMatchObject({ subjects, max_age: 3 * HOUR_NS, max_bytes: 8 * 1024 * 1024, duplicate_window: 120_000_000_000 });
  });

  it('when the configured limits change, then the next start brings the stream to them', async () => {
    const prefix = newPrefix();
    const bus = await connect(prefix, LIMITS);
    await bus.ensureStream(STREAM);
    const longer = await connect(prefix, { maxAgeMs: 5 * 3_600_000, maxBytes: 16 * 1024 * 1024 });
    await longer.ensureStream(STREAM);
    expect((await bus.jsm.streams.info(bus.streamName(STREAM.name))).config).toMatchObject({
      max_age: 5 * HOUR_NS,
      max_bytes: 16 * 1024 * 1024,
    });
  });

  it('when a bus without limits (a test neighbour) finds the stream, then it leaves the limits alone', async () => {
    const prefix = newPrefix();
    const bus = await connect(prefix, LIMITS);
    await bus.ensureStream(STREAM);
    const neighbour = await connect(prefix);
    await neighbour.ensureStream(STREAM);
    expect((await bus.jsm.streams.info(bus.streamName(STREAM.name))).config).toMatchObject({ max_age: 3 * HOUR_NS });
  });
});

describe('retention sweeper', () => {
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  beforeAll(async () => {
    schema = await kitSchema();
  });
  afterAll(() => schema.close());

  /** Outbox rows: `published` hours ago (null: not yet), written `created` hours ago; returns their ids. */
  const outboxRows = async (count: number, created: number, published: number | null): Promise<string[]> => {
    const { rows } = await schema.pool.query<{ id: string }>(
      `INSERT INTO outbox (id, subject, organization_id, payload, created_at, published_at)
       SELECT gen_random_uuid(), 'kit.thing.created', gen_random_uuid(), '{}', now() - make_interval(hours => $2),
              CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(hours => $3::int) END
         FROM generate_series(1, $1)
       RETURNING id::text AS id`,
      [count, created, published],
    );
    return rows.map((row) => row.id);
  };
  const inboxRows = async (count: number, processed: number): Promise<string[]> => {
    const { rows } = await schema.pool.query<{ event_id: string }>(
      `INSERT INTO inbox (consumer, event_id, processed_at)
       SELECT 'kit-consumer', gen_random_uuid(), now() - make_interval(hours => $2) FROM generate_series(1, $1)
       RETURNING event_id::text AS event_id`,
      [count, processed],
    );
    return rows.map((row) => row.event_id);
  };
  const remaining = async (table: 'outbox' | 'inbox'): Promise<string[]> => {
    const column = table === 'outbox' ? 'id' : 'event_id';
    const { rows } = await schema.pool.query<{ id: string }>(`SELECT ${column}::text AS id FROM ${table}`);
    return rows.map((row) => row.id).sort();
  };

  it('when rows are past their retention, then old published outbox rows and old inbox rows go, in batches, and the rest stays', async () => {
    await outboxRows(7, 50, 48);
    const recentPublished = await outboxRows(2, 50, 23); // written long ago, published within the retention
    const oldPending = await outboxRows(3, 500, null); // never published: kept whatever its age
    await inboxRows(5, 200);
    const recentInbox = await inboxRows(2, 190);

    const sweeper = new RetentionSweeper(
      schema.pool,
      { outboxRetentionHours: 24, inboxRetentionHours: 192, batchSize: 3, intervalMs: 60_000 },
      silentLog,
    );
    const result = await sweeper.sweep();

    expect(result).toMatchObject({ outbox: 7, inbox: 5, batches: 3 + 2 });
    expect(await remaining('outbox')).toEqual([...recentPublished, ...oldPending].sort());
    expect(await remaining('inbox')).toEqual(recentInbox.sort());
    expect(await sweeper.sweep()).toMatchObject({ outbox: 0, inbox: 0, batches: 2 });
  });

  it('when a sweep looks for old rows, then it reads them from the retention indexes, not by scanning the table', async () => {
    const client = await schema.pool.connect();
    try {
      await client.query('SET enable_seqscan = off'); // the tables are tiny here: only an index path may be left
      const plans = [];
      for (const [table, column] of [
        ['outbox', 'published_at'],
        ['inbox', 'processed_at'],
      ] as const) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT ctid FROM ${table} WHERE ${column} < now() - interval '1 hour' ORDER BY ${column} LIMIT 10`,
        );
        plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
      }
      expect(plans[0]).toMatch(/Index Scan using outbox_published_idx/);
      expect(plans[1]).toMatch(/Index Scan using inbox_processed_idx/);
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

describe('a started service', () => {
  it('when it runs, then its retention sweeper deletes old published outbox rows and old inbox rows beside it', async () => {
    const definition: ServiceDefinition<BaseConfig> = {
      name: 'kit-retention',
      schema: `kit_${randomBytes(4).toString('hex')}`,
      migrationsDir: mkdtempSync(join(tmpdir(), 'no-migrations-')),
      build: async (infra) => ({ app: await buildService({ name: 'kit-retention', log: infra.log, readiness: infra.readiness }) }),
    };
    const service = await startService(definition, loadConfig(baseConfigSchema, testEnv()), {
      listen: false,
      tuning: { retentionSweep: { intervalMs: 1000 } },
    });
    try {
      const { pool } = service.infra;
      await pool.query(`INSERT INTO outbox (id, subject, organization_id, payload, published_at) VALUES
        (gen_random_uuid(), 'old', gen_random_uuid(), '{}', now() - interval '25 hours'),
        (gen_random_uuid(), 'pending', gen_random_uuid(), '{}', NULL)`);
      await pool.query(`INSERT INTO inbox (consumer, event_id, processed_at) VALUES
        ('c', gen_random_uuid(), now() - interval '193 hours'), ('c', gen_random_uuid(), now() - interval '1 hour')`);
      const left = await eventually(async () => {
        const { rows } = await pool.query<{ what: string }>(
          `SELECT subject AS what FROM outbox UNION ALL SELECT 'inbox' FROM inbox ORDER BY what`,
        );
        return rows.length === 2 ? rows.map((row) => row.what) : undefined;
      }, 5000);
      expect(left).toEqual(['inbox', 'pending']);
    } finally {
      await service.stop();
    }
  });
});
