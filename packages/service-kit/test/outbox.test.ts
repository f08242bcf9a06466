import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { defineEvent, defineStream } from '@app/contracts';
import type pg from 'pg';
import { Bus, createPool, OutboxRelay, recordEvent, withTransaction } from '../src/index.js';
import { OwnNatsServer, preparedPlans } from '@app/service-testing';
import { eventually, kitSchema, silentLog } from './support/kit-env.js';

const thingCreated = defineEvent('kit.thing.created', z.object({ name: z.string() }));
// schema_version 2: `name` became `title`; version 1 stays readable.
const thingRenamed = defineEvent('kit.thing.renamed', z.object({ title: z.string() }), {
  version: 2,
  previous: { data: z.object({ name: z.string() }), upgrade: (data) => ({ title: data.name }) },
});
const STREAM = defineStream('KIT_OUTBOX', [thingCreated, thingRenamed]);
/** The relay's gap in the test of its pacing: long enough to tell from a batch's own time. */
const GAP_MS = 50;

/** Every message in the stream, in order. */
async function streamMessages(bus: Bus): Promise<{ id: string; schema_version: number; data: { name: string } }[]> {
  const name = bus.streamName(STREAM.name);
  const info = await bus.jsm.streams.info(name);
  const messages = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
    const msg = await bus.jsm.streams.getMessage(name, { seq });
    if (msg) messages.push(msg.json<{ id: string; schema_version: number; data: { name: string } }>());
  }
  return messages;
}

describe('outbox relay', () => {
  let nats: OwnNatsServer;
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let pool: pg.Pool;
  let relay: OutboxRelay;

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    bus = await Bus.connect({ url: nats.url, prefix: '', service: 'kit-test', requestTimeoutMs: 500, log: silentLog });
    schema = await kitSchema();
    pool = schema.pool;
    relay = new OutboxRelay({ pool, bus, stream: STREAM, pollMs: 100 });
    await relay.start();
  });
  afterAll(async () => {
    await relay.stop();
    await bus.close();
    await nats.destroy();
    await schema.close();
  });

  /** Writes one thing.created of a fresh organization in a transaction of its own, as a use case does. */
  const recordThing = (name: string) =>
    withTransaction(pool, (tx) => recordEvent(tx, thingCreated, { name }, { organizationId: randomUUID() }));

  it('when a change commits, then its event is published once with msgID = event id', async () => {
    const event = await recordThing('first');
    relay.wake();
    const messages = await eventually(async () => {
      const all = await streamMessages(bus);
      return all.some((m) => m.id === event.id) ? all : undefined;
    });
    expect(messages.filter((m) => m.id === event.id)).toHaveLength(1);
    expect(messages.find((m) => m.id === event.id)).toMatchObject({ schema_version: 1, data: { name: 'first' } });
    // The message is in the stream a moment before the relay's transaction marking it published commits.
    const publishedAt = await eventually(async () => {
      const { rows } = await pool.query<{ published_at: Date | null }>('SELECT published_at FROM outbox WHERE id = $1', [event.id]);
      return rows[0]?.published_at ?? undefined;
    });
    expect(publishedAt).toBeInstanceOf(Date);
  });

  it('when the transaction rolls back, then nothing is published', async () => {
    const doomed = await withTransaction(pool, async (tx) => {
      const event = await recordEvent(tx, thingCreated, { name: 'doomed' }, { organizationId: randomUUID() });
      throw Object.assign(new Error('rollback'), { event });
    }).catch((error: { event: { id: string } }) => error.event);
    const marker = await recordThing('after-rollback');
    relay.wake();
    const messages = await eventually(async () => {
      const all = await streamMessages(bus);
      return all.some((m) => m.id === marker.id) ? all : undefined;
    });
    expect(messages.some((m) => m.id === doomed.id)).toBe(false);
    expect((await pool.query('SELECT 1 FROM outbox WHERE id = $1', [doomed.id])).rowCount).toBe(0);
  });

  it('when NATS is down while events are written, then each is delivered exactly once after it returns', async () => {
    await nats.stop();
    const written = [];
    for (let i = 0; i < 5; i += 1) {
      written.push(await recordThing(`offline-${i}`));
      relay.wake();
    }
    await new Promise((resolve) => setTimeout(resolve, 800));
    const {
      rows: [pending],
    } = await pool.query<{ count: string }>('SELECT count(*) FROM outbox WHERE published_at IS NULL');
    expect(Number(pending?.count)).toBe(5);

    await nats.resume();
    const ids = written.map((e) => e.id);
    const messages = await eventually(async () => {
      const all = await streamMessages(bus).catch(() => []);
      return ids.every((id) => all.some((m) => m.id === id)) ? all : undefined;
    }, 20_000);
    for (const id of ids) expect(messages.filter((m) => m.id === id)).toHaveLength(1);
    expect(messages.filter((m) => ids.includes(m.id)).map((m) => m.data.name)).toEqual(written.map((e) => e.data.name));
  });

  it('when two relays race over the same rows, then every row is published once', async () => {
    // Count real publish calls: JetStream's msgID dedupe would otherwise hide a double publish.
    const published = new Map<string, number>();
    const counting = (target: Bus): Bus =>
      Object.assign(Object.create(target) as Bus, {
        publish: (subject: string, payload: unknown, msgID: string) => {
          published.set(msgID, (published.get(msgID) ?? 0) + 1);
          return target.publish(subject, payload, msgID);
        },
      });
    await relay.stop();
    relay = new OutboxRelay({ pool, bus: counting(bus), stream: STREAM, pollMs: 50 });
    await relay.start();
    const second = new OutboxRelay({ pool, bus: counting(bus), stream: STREAM, pollMs: 50 });
    await second.start();
    const written = [];
    for (let i = 0; i < 30; i += 1) {
      written.push(await recordThing(`race-${i}`));
      relay.wake();
      second.wake();
    }
    const ids = written.map((e) => e.id);
    const messages = await eventually(async () => {
      const all = await streamMessages(bus);
      return ids.every((id) => all.some((m) => m.id === id)) ? all : undefined;
    });
    await second.stop();
    for (const id of ids) expect(messages.filter((m) => m.id === id)).toHaveLength(1);
    for (const id of ids) expect(published.get(id)).toBe(1);
  });

  it('when rows are written one at a time, faster than its gap, then it publishes them several to a batch, batches that far apart', async () => {
    const batches: { endedAt: number; published: number; seconds: number }[] = [];
    const observed = Object.create(bus) as Bus;
    Object.defineProperty(observed, 'metrics', {
      value: {
        observeRelayBatch: (published: number, _failed: boolean, seconds: number) =>
          batches.push({ endedAt: performance.now(), published, seconds }),
      },
    });
    const own = new OutboxRelay({ pool, bus: observed, stream: STREAM, pollMs: 60_000, minGapMs: GAP_MS });
    await relay.stop();
    await own.start();
    try {
      const written = [];
      const startedMs = performance.now();
      while (performance.now() - startedMs < 400) {
        written.push(await recordThing(`paced-${written.length}`));
        own.wake();
      }
      await eventually(async () => (batches.reduce((sum, batch) => sum + batch.published, 0) >= written.length ? true : undefined));

      const starts = batches.map((batch) => batch.endedAt - batch.seconds * 1000);
      const gaps = starts.slice(1).map((start, index) => start - (starts[index] ?? 0));
      // Timers fire on the loop's millisecond clock: up to a millisecond or so early by performance.now().
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(GAP_MS - 5);
      expect(batches.length).toBeLessThanOrEqual(2 + Math.ceil((performance.now() - startedMs) / GAP_MS));
      expect(written.length / batches.length).toBeGreaterThan(2);
    } finally {
      await own.stop();
      relay = new OutboxRelay({ pool, bus, stream: STREAM, pollMs: 100 });
      await relay.start();
    }
  });

  it('when a relay publishes batch after batch, then its connection parses and plans the claim once, not per batch', async () => {
    // One connection, so the session the relay ran on is the one read: prepared statements are a session's own.
    const single = createPool(inject('databaseUrl'), { max: 1, log: silentLog, schema: schema.schema });
    const own = new OutboxRelay({ pool: single, bus, stream: STREAM, pollMs: 60_000 });
    try {
      for (let i = 0; i < 8; i += 1) {
        await recordThing(`planned-${i}`);
        await own.publishBatch();
      }
      const rows = await preparedPlans(single, 'WITH RECURSIVE organizations AS%');
      expect(rows).toHaveLength(1);
      expect((rows[0]?.generic ?? 0) + (rows[0]?.custom ?? 0)).toBe(8);
      expect(rows[0]?.generic).toBeGreaterThanOrEqual(1);
    } finally {
      await single.end();
    }
  });

  it("when an event is recorded, then its envelope carries the contract's schema_version, in the outbox and in the stream", async () => {
    const organizationId = randomUUID();
    const [first, renamed] = await withTransaction(pool, async (tx) => [
      await recordEvent(tx, thingCreated, { name: 'versioned' }, { organizationId }),
      await recordEvent(tx, thingRenamed, { title: 'renamed' }, { organizationId }),
    ]);
    const { rows } = await pool.query<{ id: string; payload: { schema_version: number } }>(
      'SELECT id::text AS id, payload FROM outbox WHERE id = ANY($1::uuid[]) ORDER BY seq',
      [[first.id, renamed.id]],
    );
    expect(rows.map((row) => row.payload.schema_version)).toEqual([1, 2]);
    relay.wake();
    const published = await eventually(async () => {
      const all = await streamMessages(bus);
      return all.some((m) => m.id === renamed.id) ? all : undefined;
    });
    expect(published.find((m) => m.id === first.id)?.schema_version).toBe(1);
    expect(published.find((m) => m.id === renamed.id)).toMatchObject({ schema_version: 2, data: { title: 'renamed' } });
  });
});
