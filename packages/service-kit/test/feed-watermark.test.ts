import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, defineStream, FEED_POSITION_HEADERS } from '@app/contracts';
import { OutboxRelay, recordEvent, withTransaction, type Bus } from '../src/index.js';
import { eventually, kitBus, kitSchema } from './support/kit-env.js';

const noted = defineEvent('kit.feed.noted', z.object({ n: z.number() }));
const STREAM = defineStream('KIT_FEED', [noted]);

interface Stored {
  subject: string;
  seq: number;
  tx?: bigint;
  outboxSeq?: bigint;
  id?: string;
}

/** Every message of the stream in order, with its position headers. */
async function stored(bus: Bus): Promise<Stored[]> {
  const name = bus.streamName(STREAM.name);
  const { state } = await bus.jsm.streams.info(name);
  const messages: Stored[] = [];
  for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq += 1) {
    const msg = await bus.jsm.streams.getMessage(name, { seq });
    if (!msg) continue;
    const body = msg.json<{ id?: string }>();
    const tx = msg.header.get(FEED_POSITION_HEADERS.transaction);
    const outboxSeq = msg.header.get(FEED_POSITION_HEADERS.sequence);
    messages.push({
      subject: msg.subject,
      seq,
      ...(tx && { tx: BigInt(tx), outboxSeq: BigInt(outboxSeq) }),
      ...(body.id !== undefined && { id: body.id }),
    });
  }
  return messages;
}

describe('change-feed positions and watermarks of the outbox relay', () => {
  let bus: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let relay: OutboxRelay;
  const organizationId = randomUUID();

  beforeAll(async () => {
    bus = await kitBus({ timeoutMs: 2000 });
    schema = await kitSchema();
    relay = new OutboxRelay({ pool: schema.pool, bus, stream: STREAM, pollMs: 50 });
    await relay.start();
  });
  afterAll(async () => {
    await relay.stop();
    await bus.close();
    await schema.close();
  });

  const record = (n: number) => withTransaction(schema.pool, (tx) => recordEvent(tx, noted, { n }, { organizationId }));
  // What the webhooks service does while feed items wait (this bus lists no topology, so it may ask itself).
  const askWatermark = async () => BigInt((await bus.request(STREAM.watermark.request, {})).watermark);

  it('when changes commit one after another, then their events carry increasing transaction ids, and events of one transaction its sequence', async () => {
    const first = await record(1);
    const [second, third] = await withTransaction(schema.pool, async (tx) => [
      await recordEvent(tx, noted, { n: 2 }, { organizationId }),
      await recordEvent(tx, noted, { n: 3 }, { organizationId }),
    ]);
    relay.wake();
    const events = await eventually(async () => {
      const all = (await stored(bus)).filter((message) => message.id !== undefined);
      return all.length >= 3 ? all : undefined;
    });
    const at = (id: string | undefined) => events.find((message) => message.id === id);
    expect(at(first.id)?.tx).toBeLessThan(at(second?.id)?.tx ?? 0n);
    expect(at(second?.id)?.tx).toBe(at(third?.id)?.tx);
    expect(at(second?.id)?.outboxSeq).toBeLessThan(at(third?.id)?.outboxSeq ?? 0n);
  });

  it('when asked, then the relay answers a watermark and the stream sequence at or before which every event below it stands, and writes nothing to the stream', async () => {
    const event = await record(4);
    relay.wake();
    const published = await eventually(async () => (await stored(bus)).find((message) => message.id === event.id));

    // Past it once no older transaction of the cluster is still open (other suites share it).
    const answer = await eventually(async () => {
      const reply = await bus.request(STREAM.watermark.request, {});
      return BigInt(reply.watermark) > (published.tx ?? 0n) ? reply : undefined;
    });
    const messages = await stored(bus);

    const below = messages.filter((message) => message.tx !== undefined && message.tx < BigInt(answer.watermark));
    expect(below.map((message) => message.id)).toContain(event.id);
    expect(below.every((message) => message.seq <= answer.sequence)).toBe(true);
    // The stream holds the events only: its last sequence is theirs.
    expect(messages.every((message) => message.id !== undefined)).toBe(true);
    expect(answer.sequence).toBe(messages.at(-1)?.seq);
  });

  it('when a transaction that recorded an event is still open, or its event is not published yet, then the watermark stays at or below its id', async () => {
    let release = () => {};
    let heldTx = 0n;
    const holding = withTransaction(schema.pool, async (tx) => {
      await recordEvent(tx, noted, { n: 5 }, { organizationId });
      const { rows } = await tx.query<{ tx: string }>('SELECT pg_current_xact_id()::text AS tx');
      heldTx = BigInt(rows[0]?.tx ?? '0');
      await new Promise<void>((resolve) => (release = resolve));
    });
    await eventually(async () => (heldTx > 0n ? true : undefined));
    await record(6); // a later transaction commits first
    expect(await askWatermark()).toBeLessThanOrEqual(heldTx);

    await relay.stop(); // committed, but not published
    release();
    await holding;
    expect(await askWatermark()).toBeLessThanOrEqual(heldTx);

    await relay.start();
    relay.wake();
    await eventually(async () => ((await askWatermark()) > heldTx ? true : undefined));
  });
});
