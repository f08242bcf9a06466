import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineStream } from '@app/contracts';
import { Bus, DeadLetters, isAppError, OutboxRelay, recordEvent, withTransaction } from '../src/index.js';
import { NatsBinary } from '@app/service-testing';
import { AsyncPathMetrics } from '../src/runtime/async-path-metrics.js';
import { eventually, kitBus, kitSchema, silentLog } from './support/kit-env.js';

const noteWritten = defineEvent('kit.note.written', z.object({ text: z.string() }));
const STREAM = defineStream('KIT_ISOLATION', [noteWritten]);

type Schema = Awaited<ReturnType<typeof kitSchema>>;

/** Rows written straight into the outbox (as an older version, or a write the size check never saw, left them). */
async function insertRows(schema: Schema, organizationId: string, count: number, textBytes = 10): Promise<void> {
  await schema.pool.query(
    `INSERT INTO outbox (id, subject, organization_id, payload)
     SELECT id, 'kit.note.written', $2::uuid,
            jsonb_build_object('id', id, 'type', 'kit.note.written', 'schema_version', 1, 'occurred_at', now(),
                               'organization_id', $2::uuid, 'correlation_id', null,
                               'data', jsonb_build_object('text', repeat('x', $3)))
       FROM (SELECT gen_random_uuid() AS id, i FROM generate_series(1, $1::int) i ORDER BY i) rows`,
    [count, organizationId, textBytes],
  );
}

/** The ids of the stream's messages, in stream order. */
async function publishedIds(bus: Bus): Promise<string[]> {
  const name = bus.streamName(STREAM.name);
  const info = await bus.jsm.streams.info(name);
  const ids: string[] = [];
  for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq += 1) {
    const msg = await bus.jsm.streams.getMessage(name, { seq });
    if (msg) ids.push(msg.json<{ id: string }>().id);
  }
  return ids;
}

describe('outbox relay: no row and no organization holds back the others', () => {
  let schema: Schema;
  let bus: Bus;
  let metrics: AsyncPathMetrics;
  let relay: OutboxRelay;
  const prefix = `${inject('natsPrefix')}_iso${randomBytes(3).toString('hex')}`;

  /** A sample of the relay's metrics (the first with all of `labels`). */
  const sample = async (name: string, labels: Record<string, string> = {}): Promise<number | undefined> => {
    const values = (await metrics.registry.getSingleMetric(name)?.get())?.values ?? [];
    return values.find((value) => Object.entries(labels).every(([key, label]) => value.labels[key] === label))?.value;
  };

  beforeAll(async () => {
    schema = await kitSchema();
    metrics = new AsyncPathMetrics('kit-test');
    metrics.watchDatabase(schema.pool);
    bus = await Bus.connect({ url: inject('natsUrl'), prefix, service: 'kit-test', requestTimeoutMs: 2000, metrics, log: silentLog });
    relay = new OutboxRelay({ pool: schema.pool, bus, stream: STREAM, pollMs: 100 });
    await relay.start();
  });
  afterAll(async () => {
    await relay.stop();
    await bus.close();
    await schema.close();
  });

  it('when rows are too large for the broker, then they are set aside as dead letters and a normal row behind them is published', async () => {
    const organizationId = randomUUID();
    await insertRows(schema, organizationId, 15, 1_100_000);
    const normal = await withTransaction(schema.pool, (tx) =>
      recordEvent(tx, noteWritten, { text: 'after the bombs' }, { organizationId }),
    );
    relay.wake();

    const outcome = await eventually(async () => {
      const { rows } = await schema.pool.query<{ dead: number; pending: number; error: string | null }>(
        `SELECT count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead,
                count(*) FILTER (WHERE published_at IS NULL AND dead_at IS NULL)::int AS pending,
                max(last_error) AS error
           FROM outbox WHERE organization_id = $1`,
        [organizationId],
      );
      return rows[0]?.pending === 0 ? rows[0] : undefined;
    }, 10_000);
    expect(outcome.dead).toBe(15);
    expect(outcome.error).toMatch(/max_payload/);
    expect(await publishedIds(bus)).toContain(normal.id);
    expect(await sample('events_dead_lettered_total', { consumer: 'outbox', type: 'kit.note.written' })).toBe(15);
    expect(await sample('outbox_dead_events')).toBe(15);
  });

  it('when a row is set aside, then the dlq tool lists it by event id and refuses to replay what the broker cannot carry', async () => {
    const organizationId = randomUUID();
    await insertRows(schema, organizationId, 1, 1_100_000);
    const { rows } = await schema.pool.query<{ id: string }>('SELECT id::text AS id FROM outbox WHERE organization_id = $1', [
      organizationId,
    ]);
    relay.wake();
    const letters = new DeadLetters(bus.js, bus.jsm, prefix, ['kit-test']);
    const letter = await eventually(
      async () => (await letters.list({ consumer: 'outbox' })).find((l) => l.eventId === rows[0]?.id),
      10_000,
    );
    expect(letter).toMatchObject({ service: 'kit-test', consumer: 'outbox', type: 'kit.note.written', reason: 'too_large' });
    expect(letter.subject).toBe(bus.subject('kit.note.written'));
    await expect(letters.replay(letter)).rejects.toThrow(/more than the broker takes/);
  });

  it('when the broker refuses one row again and again, then it is set aside after a few tries while the rows behind it leave', async () => {
    // A schema of its own: the suite's running relay must not publish these rows first.
    const own = await kitSchema();
    const organizationId = randomUUID();
    const [refused, behind] = await withTransaction(own.pool, async (tx) => [
      await recordEvent(tx, noteWritten, { text: 'refused' }, { organizationId }),
      await recordEvent(tx, noteWritten, { text: 'behind' }, { organizationId }),
    ]);
    // The broker's answer for this one message (not an outage): what a stream refusing it would throw.
    const refusing = Object.assign(Object.create(bus) as Bus, {
      publish: (subject: string, payload: unknown, msgID: string) =>
        msgID === refused.id ? Promise.reject(new Error('refused by the stream')) : bus.publish(subject, payload, msgID),
    });
    const relaying = new OutboxRelay({ pool: own.pool, bus: refusing, stream: STREAM, pollMs: 60_000 });
    for (let attempt = 0; attempt < 6; attempt += 1) await relaying.publishBatch();
    const { rows } = await own.pool.query<{ id: string; attempts: number; dead: boolean; published: boolean }>(
      `SELECT id::text AS id, attempts, dead_at IS NOT NULL AS dead, published_at IS NOT NULL AS published
         FROM outbox WHERE organization_id = $1 ORDER BY seq`,
      [organizationId],
    );
    expect(rows).toEqual([
      { id: refused.id, attempts: 5, dead: true, published: false },
      { id: behind.id, attempts: 0, dead: false, published: true },
    ]);
    await own.close();
  });

  // The two fairness tests claim by hand, in schemas of their own: the suite's running relay would claim rows between
  // their batches, and a poll still in flight holds rows (uncommitted) that their batches skip and their reads cannot see.
  it('when one organization has 5,000 events waiting, then another organization’s event is published in the first batch', async () => {
    const own = await kitSchema();
    const relaying = new OutboxRelay({ pool: own.pool, bus, stream: STREAM });
    const busy = randomUUID();
    await insertRows(own, busy, 5000);
    const other = await withTransaction(own.pool, (tx) => recordEvent(tx, noteWritten, { text: 'mine' }, { organizationId: randomUUID() }));
    const first = await relaying.publishBatch();
    expect(first.published).toBeGreaterThan(0);
    const { rows } = await own.pool.query<{ published: boolean }>(
      'SELECT published_at IS NOT NULL AS published FROM outbox WHERE id = $1',
      [other.id],
    );
    expect(rows[0]?.published).toBe(true);
    // The busy organization's events all leave too, in the order they were written.
    while ((await relaying.publishBatch()).claimed > 0);
    const ids = await publishedIds(bus);
    const { rows: written } = await own.pool.query<{ id: string; published: boolean }>(
      'SELECT id::text AS id, published_at IS NOT NULL AS published FROM outbox WHERE organization_id = $1 ORDER BY seq',
      [busy],
    );
    expect(written.every((row) => row.published)).toBe(true);
    const busyIds = new Set(written.map((row) => row.id));
    expect(ids.filter((id) => busyIds.has(id))).toEqual(written.map((row) => row.id));
    await own.close();
  });

  it('when more organizations wait than a batch holds, then each one gets its turn within a few batches', async () => {
    const own = await kitSchema();
    const relaying = new OutboxRelay({ pool: own.pool, bus, stream: STREAM });
    const organizations = Array.from({ length: 150 }, () => randomUUID());
    for (const organizationId of organizations) await insertRows(own, organizationId, 3);
    const served = new Set<string>();
    for (let batch = 0; batch < 2; batch += 1) {
      await relaying.publishBatch();
      const { rows } = await own.pool.query<{ organization_id: string }>(
        'SELECT DISTINCT organization_id::text FROM outbox WHERE published_at IS NOT NULL',
      );
      for (const row of rows) served.add(row.organization_id);
    }
    expect(served.size).toBe(organizations.length);
    await own.close();
  });
});

describe('outbox: the size check at write time', () => {
  let nats: NatsBinary;
  let bus: Bus;
  let schema: Schema;

  beforeAll(async () => {
    nats = new NatsBinary('max_payload: 65536');
    await nats.start();
    bus = await kitBus({ url: nats.url });
    schema = await kitSchema();
  });
  afterAll(async () => {
    await bus.close();
    await nats.remove();
    await schema.close();
  });

  it("when an event would exceed the connection's max_payload, then the write is refused with a 400 naming the heaviest field and nothing commits", async () => {
    const organizationId = randomUUID();
    const refused = await withTransaction(schema.pool, async (tx) => {
      await tx.query('CREATE TABLE IF NOT EXISTS notes (id uuid PRIMARY KEY, text text)');
      await tx.query('INSERT INTO notes VALUES ($1, $2)', [organizationId, 'x']);
      await recordEvent(tx, noteWritten, { text: 'y'.repeat(70_000) }, { organizationId });
    }).catch((error: unknown) => error);
    expect(isAppError(refused) && refused.status).toBe(400);
    expect(isAppError(refused) && refused.code).toBe('VALIDATION_ERROR');
    expect(isAppError(refused) && refused.details).toEqual([
      { path: 'text', message: expect.stringMatching(/^text is too large/) as string },
    ]);
    const { rows } = await schema.pool.query('SELECT 1 FROM outbox WHERE organization_id = $1', [organizationId]);
    expect(rows).toHaveLength(0);
    expect((await schema.pool.query("SELECT to_regclass('notes') AS t")).rows[0]).toEqual({ t: null });
  });

  it('when an event fits, then it is written', async () => {
    const organizationId = randomUUID();
    await withTransaction(schema.pool, (tx) => recordEvent(tx, noteWritten, { text: 'y'.repeat(50_000) }, { organizationId }));
    const { rows } = await schema.pool.query('SELECT 1 FROM outbox WHERE organization_id = $1', [organizationId]);
    expect(rows).toHaveLength(1);
  });
});
