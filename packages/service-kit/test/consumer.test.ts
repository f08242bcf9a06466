import { randomUUID } from 'node:crypto';
import { AckPolicy } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineStream } from '@app/contracts';
import { consumerTask, eventHandler, startConsumer, type Bus, type RunningConsumer } from '../src/index.js';
import { isJetStreamApiError, JetStreamCode } from '../src/nats/jetstream-errors.js';
import { envelopeOf } from './support/envelopes.js';
import { eventually, kitBus, kitSchema } from './support/kit-env.js';

const counted = defineEvent('kit.counter.incremented', z.object({ counter: z.string(), by: z.number().int() }));
const STREAM = defineStream('KIT_CONSUMER', [counted]);

const envelope = (data: unknown, id: string = randomUUID()) => envelopeOf(counted.subject, data, { id });

describe('startConsumer', () => {
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let consumer: RunningConsumer;
  let failNext = false;

  const total = async (counter: string) => {
    const { rows } = await schema.pool.query<{ total: number }>('SELECT total FROM counters WHERE name = $1', [counter]);
    return rows[0]?.total;
  };
  const publishRaw = (payload: unknown, msgID = randomUUID()) =>
    bus.js.publish(bus.subject(counted.subject), JSON.stringify(payload), { msgID });

  beforeAll(async () => {
    bus = await kitBus();
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE counters (name text PRIMARY KEY, total integer NOT NULL)');
    await schema.pool.query('CREATE TABLE applied (position bigserial PRIMARY KEY, counter text NOT NULL, by integer NOT NULL)');
    await bus.ensureStream(STREAM);
    consumer = await startConsumer(bus, {
      durable: 'kit-counter',
      stream: STREAM,
      pool: schema.pool,
      handlers: [
        eventHandler(counted, async (event, tx) => {
          if (failNext) {
            failNext = false;
            // The database going away mid-event, as pg reports it: retried, never dead-lettered.
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          }
          await tx.query(
            'INSERT INTO counters (name, total) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET total = counters.total + $2',
            [event.data.counter, event.data.by],
          );
          await tx.query('INSERT INTO applied (counter, by) VALUES ($1, $2)', [event.data.counter, event.data.by]);
        }),
      ],
    });
  });
  afterAll(async () => {
    await consumer.stop();
    await bus.close();
    await schema.close();
  });

  it('when an event arrives, then it is applied and acked (not redelivered)', async () => {
    await publishRaw(envelope({ counter: 'a', by: 2 }));
    expect(await eventually(() => total('a'))).toBe(2);
    const info = await bus.jsm.consumers.info(bus.streamName(STREAM.name), bus.streamName('kit-counter'));
    await eventually(async () => ((await bus.jsm.consumers.info(info.stream_name, info.name)).num_ack_pending === 0 ? true : undefined));
  });

  it('when the same event is delivered twice, then it has one effect', async () => {
    const id = randomUUID();
    // Different msgIDs so JetStream stores both copies: the inbox, not the stream, must dedupe.
    await publishRaw(envelope({ counter: 'b', by: 5 }, id));
    await publishRaw(envelope({ counter: 'b', by: 5 }, id));
    await publishRaw(envelope({ counter: 'b-marker', by: 1 }));
    await eventually(() => total('b-marker'));
    expect(await total('b')).toBe(5);
  });

  it('when an event is malformed, then it is dead-lettered, terminated, and later events still flow', async () => {
    await publishRaw({ not: 'an envelope' });
    await publishRaw(envelope({ counter: 'c', by: 'many' }));
    await publishRaw(envelope({ counter: 'c-after', by: 1 }));
    expect(await eventually(() => total('c-after'))).toBe(1);
    expect(await total('c')).toBeUndefined();
    const info = await eventually(async () => {
      const current = await bus.jsm.consumers.info(bus.streamName(STREAM.name), bus.streamName('kit-counter'));
      return current.num_ack_pending === 0 ? current : undefined;
    });
    expect(info.num_redelivered).toBe(0);
  });

  it('when handling fails once for a transient reason, then the event is redelivered and applied once', async () => {
    failNext = true;
    await publishRaw(envelope({ counter: 'd', by: 3 }));
    expect(await eventually(() => total('d'))).toBe(3);
  });

  const appliedOrder = async (counter: string) =>
    (await schema.pool.query<{ by: number }>('SELECT by FROM applied WHERE counter = $1 ORDER BY position', [counter])).rows.map(
      (row) => row.by,
    );

  it('when many events arrive at once, then each is applied once and in stream order', async () => {
    // Published back to back without waiting for the consumer: they arrive while earlier ones are applied,
    // so they are applied in batches.
    const published = Array.from({ length: 120 }, (_, index) => index + 1);
    for (const by of published) await publishRaw(envelope({ counter: 'e', by }));
    await eventually(async () => ((await total('e')) === (120 * 121) / 2 ? true : undefined));
    expect(await appliedOrder('e')).toEqual(published);
  });

  it('when an event is delivered twice among others at once, then it has one effect', async () => {
    const id = randomUUID();
    await Promise.all([
      ...Array.from({ length: 10 }, () => publishRaw(envelope({ counter: 'f', by: 1 }))),
      publishRaw(envelope({ counter: 'f', by: 100 }, id)),
      publishRaw(envelope({ counter: 'f', by: 100 }, id)),
    ]);
    await publishRaw(envelope({ counter: 'f-marker', by: 1 }));
    await eventually(() => total('f-marker'));
    expect(await eventually(async () => ((await total('f')) === 110 ? 110 : undefined))).toBe(110);
    expect((await appliedOrder('f')).filter((by) => by === 100)).toHaveLength(1);
  });

  it('when handling fails inside a batch, then every event of it is still applied exactly once', async () => {
    failNext = true;
    await Promise.all(Array.from({ length: 30 }, () => publishRaw(envelope({ counter: 'g', by: 1 }))));
    expect(await eventually(async () => ((await total('g')) === 30 ? 30 : undefined))).toBe(30);
    expect(await appliedOrder('g')).toHaveLength(30);
  });

  it('when the durable exists with an older config (max_deliver 20, as before dead letters), then it is updated in place', async () => {
    const stream = bus.streamName(STREAM.name);
    const durable = bus.streamName('kit-counter-redeployed');
    await bus.jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, max_deliver: 20 });
    const again = await startConsumer(bus, {
      durable: 'kit-counter-redeployed',
      stream: STREAM,
      pool: schema.pool,
      handlers: [eventHandler(counted, async () => undefined)],
    });
    await again.stop();
    const info = await bus.jsm.consumers.info(stream, durable);
    expect(info.config.max_deliver).toBe(-1);
  });

  it('when its stream does not exist yet, then the consumer does not create it, waits, and a stop ends the wait', async () => {
    const absent = defineStream('KIT_NOT_YET', [counted]);
    const options = { durable: 'kit-waiting', stream: absent, pool: schema.pool, handlers: [eventHandler(counted, async () => undefined)] };
    await expect(startConsumer(bus, options)).rejects.toSatisfy((error) => isJetStreamApiError(error, JetStreamCode.StreamNotFound));
    const task = consumerTask(bus, { ...options, retryMs: 50 });
    await task.start(); // resolves: the service starts while its publisher has not created the stream
    await new Promise((resolve) => setTimeout(resolve, 150));
    await expect(bus.jsm.streams.info(bus.streamName(absent.name))).rejects.toSatisfy((error) =>
      isJetStreamApiError(error, JetStreamCode.StreamNotFound),
    );
    const started = Date.now();
    await task.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

const tallied = defineEvent('kit.tally.added', z.object({ by: z.number().int() }));
const TALLY_STREAM = defineStream('KIT_TALLY', [tallied]);

describe('startConsumer with organizationsConcerned', () => {
  const concerned = randomUUID();
  const unconcerned = randomUUID();
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let consumer: RunningConsumer;
  let askingFails = false;

  const publish = async (organizationId: string, by: number) => {
    const id = randomUUID();
    const event = { ...envelope({ by }, id), type: tallied.subject, organization_id: organizationId };
    await bus.js.publish(bus.subject(tallied.subject), JSON.stringify(event), { msgID: id });
    return id;
  };
  const tallies = async () =>
    (await schema.pool.query<{ organization_id: string; by: number }>('SELECT organization_id::text, by FROM tallies ORDER BY by')).rows;
  const inboxed = async (ids: string[]) =>
    (
      await schema.pool.query<{ event_id: string }>(
        "SELECT event_id::text FROM inbox WHERE consumer = 'kit-tally' AND event_id = ANY($1::uuid[]) ORDER BY event_id",
        [ids],
      )
    ).rows.map((row) => row.event_id);
  const allAcked = async () => {
    const info = await bus.jsm.consumers.info(bus.streamName(TALLY_STREAM.name), bus.streamName('kit-tally'));
    return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
  };

  beforeAll(async () => {
    bus = await kitBus();
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE tallies (organization_id uuid NOT NULL, by integer NOT NULL)');
    await bus.ensureStream(TALLY_STREAM);
    consumer = await startConsumer(bus, {
      durable: 'kit-tally',
      stream: TALLY_STREAM,
      pool: schema.pool,
      organizationsConcerned: async (organizationIds) => {
        if (askingFails) throw new Error('Connection terminated unexpectedly');
        return new Set(organizationIds.filter((id) => id === concerned));
      },
      handlers: [
        eventHandler(tallied, async (event, tx) => {
          await tx.query('INSERT INTO tallies (organization_id, by) VALUES ($1, $2)', [event.organization_id, event.data.by]);
        }),
      ],
    });
  });
  afterAll(async () => {
    await consumer.stop();
    await bus.close();
    await schema.close();
  });

  it('when events of an organization it has nothing to do for arrive, then they are acked with no effect and no inbox row', async () => {
    const skipped = await Promise.all([publish(unconcerned, 1), publish(unconcerned, 2)]);
    const applied = await publish(concerned, 3);
    await eventually(async () => ((await tallies()).length > 0 ? true : undefined));
    await eventually(allAcked);
    expect(await tallies()).toEqual([{ organization_id: concerned, by: 3 }]);
    expect(await inboxed([...skipped, applied])).toEqual([applied]);
  });

  it('when asking which organizations are concerned fails, then the events are applied as usual', async () => {
    askingFails = true;
    try {
      const id = await publish(unconcerned, 4);
      await eventually(async () => ((await tallies()).some((row) => row.by === 4) ? true : undefined));
      expect(await inboxed([id])).toEqual([id]);
    } finally {
      askingFails = false;
    }
  });
});

const paced = defineEvent('kit.paced.recorded', z.object({ by: z.number().int() }));
const PACED_STREAM = defineStream('KIT_PACED', [paced]);

describe('startConsumer with minBatchGapMs', () => {
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let consumer: RunningConsumer;

  beforeAll(async () => {
    bus = await kitBus();
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE paced (by integer PRIMARY KEY, tx xid8 NOT NULL)');
    await bus.ensureStream(PACED_STREAM);
    consumer = await startConsumer(bus, {
      durable: 'kit-paced',
      stream: PACED_STREAM,
      pool: schema.pool,
      minBatchGapMs: 100,
      handlers: [
        eventHandler(paced, async (event, tx) => {
          await tx.query('INSERT INTO paced (by, tx) VALUES ($1, pg_current_xact_id())', [event.data.by]);
        }),
      ],
    });
  });
  afterAll(async () => {
    await consumer.stop();
    await bus.close();
    await schema.close();
  });

  it('when events come one at a time, faster than the gap, then they are applied several to a transaction, each once and in order', async () => {
    const published = Array.from({ length: 40 }, (_, index) => index + 1);
    for (const by of published) {
      await bus.js.publish(bus.subject(paced.subject), JSON.stringify(envelopeOf(paced.subject, { by })), { msgID: randomUUID() });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const applied = await eventually(async () => {
      const { rows } = await schema.pool.query<{ by: number; tx: string }>('SELECT by, tx::text FROM paced ORDER BY tx::text::numeric, by');
      return rows.length === published.length ? rows : undefined;
    });

    expect(applied.map((row) => row.by)).toEqual(published);
    // 40 events over ≥ 400 ms, a batch at most every 100 ms: without the gap, a transaction each.
    expect(new Set(applied.map((row) => row.tx)).size).toBeLessThanOrEqual(10);
  });
});
