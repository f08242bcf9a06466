import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headers } from '@nats-io/nats-core';
import { z } from 'zod';
import { defineEvent, defineStream } from '@app/contracts';
import { DeadLetterHeader, DeadLetters, eventHandler, startConsumer, type Bus, type RunningConsumer } from '../src/index.js';
import { envelopeOf } from './support/envelopes.js';
import { eventually, kitBus, kitSchema } from './support/kit-env.js';

const noted = defineEvent('kit.note.added', z.object({ note: z.string(), fail: z.enum(['never', 'refused', 'transiently']) }));
const STREAM = defineStream('KIT_DEAD_LETTERS', [noted]);

/**
 * The consumer's dead letters on real NATS and Postgres: what cannot be applied is kept with why, what fails for
 * a transient reason is retried past the old 20 deliveries, and `DeadLetters` (the `dlq` CLI's logic) lists, shows,
 * replays and discards them.
 */
describe('startConsumer dead letters', () => {
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  const consumers: RunningConsumer[] = [];
  const deadLettered: [string, string][] = [];
  /** Whether the handler refuses notes marked `refused` (until a "fix" turns it off). */
  let refusing = true;
  /** Notes marked `transiently` fail this many more deliveries per consumer, as with a database away. */
  const transientFailures: Record<string, number> = {};
  let letters: DeadLetters;

  const notes = async (table: string) =>
    (await schema.pool.query<{ note: string }>(`SELECT note FROM ${table} ORDER BY note`)).rows.map((r) => r.note);
  const publish = (data: unknown, headers?: Record<string, string>) => {
    const envelope = envelopeOf(noted.subject, data);
    const { id } = envelope;
    return bus.js
      .publish(bus.subject(noted.subject), JSON.stringify(envelope), { msgID: id, ...(headers && { headers: natsHeadersOf(headers) }) })
      .then(() => id);
  };
  const consume = async (durable: string, table: string) => {
    consumers.push(
      await startConsumer(bus, {
        durable,
        stream: STREAM,
        pool: schema.pool,
        retry: { initialMs: 10, maxMs: 40 },
        onDeadLetter: (consumer, type) => void deadLettered.push([consumer, type]),
        handlers: [
          eventHandler(noted, async (event, tx) => {
            if (event.data.fail === 'refused' && refusing) throw new Error(`note ${event.data.note} refused`);
            if (event.data.fail === 'transiently' && (transientFailures[durable] = (transientFailures[durable] ?? 0) - 1) >= 0)
              throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
            await tx.query(`INSERT INTO ${table} (note) VALUES ($1)`, [event.data.note]);
          }),
        ],
      }),
    );
  };
  const lettersOf = (consumer: string) => letters.list({ service: 'kit-test', consumer });

  beforeAll(async () => {
    bus = await kitBus();
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE first_notes (note text PRIMARY KEY)');
    await schema.pool.query('CREATE TABLE second_notes (note text PRIMARY KEY)');
    await bus.ensureStream(STREAM);
    await consume('kit-first', 'first_notes');
    await consume('kit-second', 'second_notes');
    letters = new DeadLetters(bus.js, bus.jsm, bus.subject('').slice(0, -1), ['kit-test']);
  });
  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop();
    await bus.close();
    await schema.close();
  });

  it('when a handler refuses an event, then it is dead-lettered with its subject, headers, error and deliveries, and not redelivered', async () => {
    const id = await publish(
      { note: 'poison', fail: 'refused' },
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    );
    await publish({ note: 'after-poison', fail: 'never' });
    await eventually(async () => ((await notes('first_notes')).includes('after-poison') ? true : undefined));
    const [letter] = await eventually(async () => {
      const found = await lettersOf('kit-first');
      return found.length > 0 ? found : undefined;
    });
    expect(letter).toMatchObject({
      consumer: 'kit-first',
      subject: bus.subject(noted.subject),
      eventId: id,
      type: noted.subject,
      reason: 'failed',
      error: 'Error: note poison refused',
      deliveries: 1,
    });
    expect(letter?.headers).toMatchObject({
      traceparent: ['00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
      [DeadLetterHeader.msgId]: [id],
    });
    expect(JSON.parse(letter?.payload ?? '')).toMatchObject({ id, data: { note: 'poison' } });
    expect(deadLettered).toContainEqual(['kit-first', noted.subject]);
    const info = await bus.jsm.consumers.info(bus.streamName(STREAM.name), bus.streamName('kit-first'));
    expect(info.num_ack_pending + info.num_pending).toBe(0);
    expect(info.config.max_deliver).toBe(-1);
    // Kept longer than events (30 days), in less room (128 MiB): a bus given no limits gets the config's defaults.
    const kept = await bus.jsm.streams.info(bus.streamName('DLQ_KIT_TEST'));
    expect([kept.config.subjects, kept.config.max_age, kept.config.max_bytes]).toEqual([
      [bus.subject('dlq.kit-test.>')],
      30 * 24 * 3_600_000 * 1_000_000,
      128 * 1024 * 1024,
    ]);
  });

  it('when an event is malformed, then it is dead-lettered with why, not silently terminated', async () => {
    await bus.js.publish(bus.subject(noted.subject), 'not json at all', { msgID: randomUUID() });
    const malformed = await eventually(async () => {
      const found = (await lettersOf('kit-second')).filter((letter) => letter.reason === 'malformed');
      return found.length > 0 ? found : undefined;
    });
    expect(malformed[0]).toMatchObject({ payload: 'not json at all', type: noted.subject, eventId: '' });
    expect(malformed[0]?.error).toMatch(/^Error: not JSON/);
  });

  it('when handling fails for a transient reason more often than the old max_deliver (20), then it is applied in the end, never dead-lettered', async () => {
    Object.assign(transientFailures, { 'kit-first': 25, 'kit-second': 25 });
    await publish({ note: 'outage', fail: 'transiently' });
    await eventually(
      async () => ((await notes('first_notes')).includes('outage') && (await notes('second_notes')).includes('outage') ? true : undefined),
      15_000,
    );
    expect(transientFailures).toEqual({ 'kit-first': -1, 'kit-second': -1 });
    const letters = [...(await lettersOf('kit-first')), ...(await lettersOf('kit-second'))];
    expect(letters.filter((letter) => letter.payload.includes('"outage"'))).toEqual([]);
  });

  it('when a dead letter is replayed after the fix, then only its consumer applies it, and it leaves the dead letters', async () => {
    const poison = (await lettersOf('kit-second')).find((letter) => letter.payload.includes('"poison"'));
    expect(poison).toBeDefined();
    refusing = false;
    // The first consumer's own dead letter of the same event is discarded first: the second one's replay must not reach it.
    for (const letter of await lettersOf('kit-first')) await letters.discard(letter);
    await letters.replay(poison!);
    await eventually(async () => ((await notes('second_notes')).includes('poison') ? true : undefined));
    await publish({ note: 'after-replay', fail: 'never' });
    await eventually(async () => ((await notes('first_notes')).includes('after-replay') ? true : undefined));
    expect(await notes('first_notes')).not.toContain('poison');
    expect(await letters.get('kit-test', poison!.seq)).toBeNull();
    expect(await lettersOf('kit-first')).toEqual([]);
  });
});

function natsHeadersOf(values: Record<string, string>) {
  const h = headers();
  for (const [key, value] of Object.entries(values)) h.set(key, value);
  return h;
}
