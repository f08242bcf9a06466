import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineStream } from '@app/contracts';
import { eventHandler, startConsumer, type Bus, type Queryable, type RunningConsumer } from '../src/index.js';
import { envelopeOf } from './support/envelopes.js';
import { eventually, kitBus, kitSchema } from './support/kit-env.js';

// Two contracts of one stream whose data look nothing alike: each handler reads only its own contract's fields.
const noted = defineEvent('kit.ledger.noted', z.object({ ledger: z.string(), note: z.string() }));
const closed = defineEvent('kit.ledger.closed', z.object({ ledger: z.string(), reason: z.enum(['done', 'void']) }));
const opened = defineEvent('kit.ledger.opened', z.object({ ledger: z.string() }));
const STREAM = defineStream('KIT_LEDGER', [noted, closed, opened]);

async function write(tx: Queryable, ledger: string, entry: string): Promise<void> {
  await tx.query('INSERT INTO ledger (name, entry) VALUES ($1, $2)', [ledger, entry]);
}

describe('startConsumer with a handler per event contract', () => {
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let consumer: RunningConsumer;

  const entries = async (ledger: string) =>
    (await schema.pool.query<{ entry: string }>('SELECT entry FROM ledger WHERE name = $1 ORDER BY position', [ledger])).rows.map(
      (row) => row.entry,
    );
  const publish = (subject: string, payload: unknown) =>
    bus.js.publish(bus.subject(subject), JSON.stringify(payload), { msgID: randomUUID() });

  beforeAll(async () => {
    bus = await kitBus();
    schema = await kitSchema();
    await schema.pool.query('CREATE TABLE ledger (position bigserial PRIMARY KEY, name text NOT NULL, entry text NOT NULL)');
    await bus.ensureStream(STREAM); // as its publisher does: a consumer never creates the stream
    consumer = await startConsumer(bus, {
      durable: 'kit-ledger',
      stream: STREAM,
      pool: schema.pool,
      handlers: [
        eventHandler(noted, (event, tx) => write(tx, event.data.ledger, `noted ${event.data.note}`)),
        eventHandler(closed, (event, tx) => write(tx, event.data.ledger, `closed ${event.data.reason}`)),
      ],
    });
  });
  afterAll(async () => {
    await consumer.stop();
    await bus.close();
    await schema.close();
  });

  it('when events of two contracts arrive, then each reaches its own handler, in stream order', async () => {
    await publish(noted.subject, envelopeOf(noted.subject, { ledger: 'a', note: 'first' }));
    await publish(closed.subject, envelopeOf(closed.subject, { ledger: 'a', reason: 'done' }));
    expect(await eventually(async () => ((await entries('a')).length === 2 ? entries('a') : undefined))).toEqual([
      'noted first',
      'closed done',
    ]);
  });

  it('when many events of both contracts arrive at once, then each is applied once by its own handler', async () => {
    // Published without waiting for the consumer, so they are applied in batches that mix the two contracts.
    const expected = Array.from({ length: 40 }, (_, index) => (index % 2 ? `closed done` : `noted n${index}`));
    for (const [index, entry] of expected.entries()) {
      if (index % 2) await publish(closed.subject, envelopeOf(closed.subject, { ledger: 'b', reason: 'done' }));
      else await publish(noted.subject, envelopeOf(noted.subject, { ledger: 'b', note: entry.slice('noted '.length) }));
    }
    expect(await eventually(async () => ((await entries('b')).length === 40 ? entries('b') : undefined))).toEqual(expected);
  });

  it("when an event carries another contract's data, then it is terminated, not given to the other handler", async () => {
    await publish(closed.subject, envelopeOf(closed.subject, { ledger: 'c', note: 'not a closing' }));
    await publish(noted.subject, envelopeOf(noted.subject, { ledger: 'c', note: 'after' }));
    expect(await eventually(async () => ((await entries('c')).length > 0 ? entries('c') : undefined))).toEqual(['noted after']);
  });

  it('when the stream holds an event type without a handler, then it is acked and skipped', async () => {
    await publish(opened.subject, envelopeOf(opened.subject, { ledger: 'd' }));
    await publish(noted.subject, envelopeOf(noted.subject, { ledger: 'd', note: 'after' }));
    expect(await eventually(async () => ((await entries('d')).length > 0 ? entries('d') : undefined))).toEqual(['noted after']);
    const info = await eventually(async () => {
      const current = await bus.jsm.consumers.info(bus.streamName(STREAM.name), bus.streamName('kit-ledger'));
      return current.num_ack_pending === 0 ? current : undefined;
    });
    expect(info.num_redelivered).toBe(0);
  });
});
