import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineStream } from '@app/contracts';
import { eventHandler, startConsumer, type Bus, type RunningConsumer } from '../src/index.js';
import { envelopeOf } from './support/envelopes.js';
import { eventually, kitBus, kitSchema } from './support/kit-env.js';

// schema_version 2 of a counter event renamed `by` to `amount` and added a required `unit`; version 1 stays readable.
const added = defineEvent('kit.tally.added', z.object({ tally: z.string(), amount: z.number().int(), unit: z.enum(['piece', 'box']) }), {
  version: 2,
  previous: {
    data: z.object({ tally: z.string(), by: z.number().int() }),
    upgrade: (data) => ({ tally: data.tally, amount: data.by, unit: 'piece' as const }),
  },
});
const STREAM = defineStream('KIT_TALLY', [added]);

/** With no version given, the envelope has no schema_version at all. */
const envelope = (data: unknown, schemaVersion?: number) => envelopeOf(added.subject, data, { schema_version: schemaVersion });

describe('startConsumer with a versioned event contract', () => {
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let consumer: RunningConsumer;

  /** What the handler was given, per tally: the schema_version and data it saw. */
  const seen = async (tally: string) =>
    (
      await schema.pool.query<{ version: number; data: unknown }>('SELECT version, data FROM seen WHERE tally = $1 ORDER BY position', [
        tally,
      ])
    ).rows;
  const publish = (payload: unknown) => bus.js.publish(bus.subject(added.subject), JSON.stringify(payload), { msgID: randomUUID() });

  beforeAll(async () => {
    bus = await kitBus();
    schema = await kitSchema();
    await schema.pool.query(
      'CREATE TABLE seen (position bigserial PRIMARY KEY, tally text NOT NULL, version integer NOT NULL, data jsonb NOT NULL)',
    );
    await bus.ensureStream(STREAM);
    consumer = await startConsumer(bus, {
      durable: 'kit-tally',
      stream: STREAM,
      pool: schema.pool,
      handlers: [
        eventHandler(added, async (event, tx) => {
          await tx.query('INSERT INTO seen (tally, version, data) VALUES ($1, $2, $3::jsonb)', [
            event.data.tally,
            event.schema_version,
            JSON.stringify(event.data),
          ]);
        }),
      ],
    });
  });
  afterAll(async () => {
    await consumer.stop();
    await bus.close();
    await schema.close();
  });

  it('when an event of the current schema_version arrives, then the handler gets its data as it is', async () => {
    await publish(envelope({ tally: 'current', amount: 4, unit: 'box' }, 2));

    expect(await eventually(async () => ((await seen('current')).length > 0 ? seen('current') : undefined))).toEqual([
      { version: 2, data: { tally: 'current', amount: 4, unit: 'box' } },
    ]);
  });

  it('when an event of the previous schema_version arrives, then the handler gets it upgraded to the current shape', async () => {
    await publish(envelope({ tally: 'previous', by: 3 }, 1));

    expect(await eventually(async () => ((await seen('previous')).length > 0 ? seen('previous') : undefined))).toEqual([
      { version: 2, data: { tally: 'previous', amount: 3, unit: 'piece' } },
    ]);
  });

  it('when an envelope has no schema_version (written before events were versioned), then it is read as version 1', async () => {
    await publish(envelope({ tally: 'unversioned', by: 5 }));

    expect(await eventually(async () => ((await seen('unversioned')).length > 0 ? seen('unversioned') : undefined))).toEqual([
      { version: 2, data: { tally: 'unversioned', amount: 5, unit: 'piece' } },
    ]);
  });

  it('when an event has an unknown schema_version or data not of its version, then it is terminated and later events still flow', async () => {
    await publish(envelope({ tally: 'refused', amount: 1, unit: 'box' }, 3)); // a version from the future
    await publish(envelope({ tally: 'refused', amount: 1, unit: 'box' }, 1)); // version 2 data labelled version 1
    await publish(envelope({ tally: 'refused', by: 1 }, 2)); // version 1 data labelled version 2
    await publish(envelope({ tally: 'refused', amount: 1, unit: 'box' }, 0));
    await publish(envelope({ tally: 'after', amount: 1, unit: 'piece' }, 2));

    await eventually(async () => ((await seen('after')).length > 0 ? true : undefined));
    expect(await seen('refused')).toEqual([]);
    const info = await eventually(async () => {
      const current = await bus.jsm.consumers.info(bus.streamName(STREAM.name), bus.streamName('kit-tally'));
      return current.num_ack_pending === 0 ? current : undefined;
    });
    expect(info.num_redelivered).toBe(0);
  });
});

describe('defineEvent versions', () => {
  it('when a version is not an integer from 1, or drops or invents its previous one, then it is refused', () => {
    const data = z.object({ a: z.string() });
    const previous = { data, upgrade: (value: { a: string }) => value };

    expect(() => defineEvent('kit.x.done', data, { version: 0 })).toThrow('schema_version must be an integer from 1');
    expect(() => defineEvent('kit.x.done', data, { version: 2 })).toThrow('version 2 must keep version 1 readable');
    expect(() => defineEvent('kit.x.done', data, { version: 1, previous })).toThrow('version 1 has no previous version');
    expect(defineEvent('kit.x.done', data)).toMatchObject({ version: 1 });
  });
});
