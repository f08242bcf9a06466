import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { eventEnvelopeSchema, type EventContract, type EventEnvelope, type StreamContract } from '@app/contracts';
import type { z } from 'zod';
import type pg from 'pg';
import type { Queryable } from '../db/sql.js';
import { withTransaction } from '../db/transaction.js';
import type { Bus } from './bus.js';

export interface ConsumerOptions<Data extends z.ZodType> {
  /** Durable consumer name; also the inbox key, so it must stay stable across deploys. */
  durable: string;
  stream: StreamContract;
  events: EventContract<Data>[];
  pool: pg.Pool;
  /** Applies the event inside the transaction that also records it in the inbox. */
  handle: (event: EventEnvelope<z.output<Data>>, tx: Queryable) => Promise<void>;
  /** Redeliveries before a message that keeps failing is given up on (and logged). */
  maxDeliver?: number;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * A durable JetStream consumer with explicit acks: processed → ack; malformed → term (never redelivered);
 * handler failure → nak with backoff; a redelivered event whose id is in the inbox → ack without a second effect.
 * Events that arrived while the previous ones were being applied are applied together, in order, in one
 * transaction (one inbox statement for all): under load that turns four round trips per event into about
 * one. When such a batch fails, its events are applied one by one, so only the failing one is retried.
 */
export async function startConsumer<Data extends z.ZodType>(bus: Bus, options: ConsumerOptions<Data>): Promise<RunningConsumer> {
  const stream = await bus.ensureStream(options.stream);
  const durable = bus.streamName(options.durable);
  const maxDeliver = options.maxDeliver ?? 20;
  const [only] = options.events;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    // One subject: filter on the server. Several: take the whole stream and skip what is not ours
    // (filter_subjects would need nats-server 2.10; Debian ships 2.9).
    ...(options.events.length === 1 && only ? { filter_subject: bus.subject(only.subject) } : {}),
    max_deliver: maxDeliver,
    ack_wait: 30_000_000_000,
  };
  await bus.jsm.consumers.add(stream, config).catch(async (error: unknown) => {
    // A durable that exists with an older config (a deploy changed it) is updated in place.
    if (!(error instanceof Error) || !/already (exists|in use)/i.test(error.message)) throw error;
    const { durable_name: _name, deliver_policy: _policy, ...updatable } = config;
    await bus.jsm.consumers.update(stream, durable, updatable);
  });
  const consumer = await bus.js.consumers.get(stream, durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  const contracts = new Map(options.events.map((event) => [bus.subject(event.subject), event]));

  const queue = new ArrivalQueue<JsMsg>();
  const reading = (async () => {
    for await (const msg of messages) queue.push(msg);
  })().finally(() => queue.end());
  const applying = (async () => {
    for (let batch = await queue.takeAll(); batch.length > 0; batch = await queue.takeAll())
      await processBatch(bus, options, contracts, batch, maxDeliver);
  })();
  return {
    async stop() {
      await messages.close();
      await reading.catch(() => undefined);
      await applying.catch(() => undefined);
    },
  };
}

/** Messages in arrival order; `takeAll` waits for at least one and takes every one waiting (none once ended). */
class ArrivalQueue<T> {
  private items: T[] = [];
  private ended = false;
  private wake: (() => void) | null = null;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async takeAll(): Promise<T[]> {
    while (this.items.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    return this.items.splice(0);
  }
}

async function processBatch<Data extends z.ZodType>(
  bus: Bus,
  options: ConsumerOptions<Data>,
  contracts: Map<string, EventContract<Data>>,
  batch: JsMsg[],
  maxDeliver: number,
): Promise<void> {
  const ours = batch.filter((msg) => contracts.has(msg.subject));
  const events = ours.map((msg) => parseEvent(msg, contracts)).filter((event) => event !== null);
  if (ours.length < 2 || events.length < ours.length) {
    // Nothing to gain, or a malformed event to terminate on its own: the one-by-one path.
    for (const msg of batch) await processMessage(bus, options, contracts, msg, maxDeliver);
    return;
  }
  try {
    await withTransaction(options.pool, async (tx) => {
      const { rows: fresh } = await tx.query<{ event_id: string }>(
        `INSERT INTO inbox (consumer, event_id) SELECT $1, id FROM unnest($2::uuid[]) AS id
         ON CONFLICT DO NOTHING RETURNING event_id::text`,
        [options.durable, events.map((event) => event.id)],
      );
      // An id twice in one batch (a redelivery) is applied once; uuids come back in lower case.
      const unseen = new Set(fresh.map((row) => row.event_id));
      for (const event of events) if (unseen.delete(event.id.toLowerCase())) await options.handle(event, tx);
    });
  } catch {
    // Which event failed is unknown here: one by one, each gets its own ack or nak.
    for (const msg of batch) await processMessage(bus, options, contracts, msg, maxDeliver);
    return;
  }
  for (const msg of batch) msg.ack();
}

async function processMessage<Data extends z.ZodType>(
  bus: Bus,
  options: ConsumerOptions<Data>,
  contracts: Map<string, EventContract<Data>>,
  msg: JsMsg,
  maxDeliver: number,
): Promise<void> {
  if (!contracts.has(msg.subject)) {
    msg.ack(); // another event type of the same stream: not this consumer's business
    return;
  }
  const event = parseEvent(msg, contracts);
  if (!event) {
    bus.log.error({ subject: msg.subject, consumer: options.durable, seq: msg.seq }, 'malformed event terminated');
    msg.term(); // no reason text: nats-server 2.9 ignores a +TERM that carries one
    return;
  }
  try {
    await withTransaction(options.pool, async (tx) => {
      const { rowCount } = await tx.query('INSERT INTO inbox (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING', [
        options.durable,
        event.id,
      ]);
      if (rowCount === 1) await options.handle(event, tx);
    });
    msg.ack();
  } catch (error) {
    const attempt = msg.info.deliveryCount;
    const level = attempt >= maxDeliver ? 'error' : 'warn';
    bus.log[level]({ err: error, event_id: event.id, type: event.type, attempt }, 'event handling failed');
    msg.nak(Math.min(30_000, 250 * 2 ** attempt));
  }
}

function parseEvent<Data extends z.ZodType>(msg: JsMsg, contracts: Map<string, EventContract<Data>>): EventEnvelope<z.output<Data>> | null {
  const contract = contracts.get(msg.subject);
  if (!contract) return null;
  let json: unknown;
  try {
    json = msg.json();
  } catch {
    return null;
  }
  const envelope = eventEnvelopeSchema.safeParse(json);
  if (!envelope.success) return null;
  const data = contract.data.safeParse(envelope.data.data);
  if (!data.success) return null;
  return { ...envelope.data, data: data.data };
}

/** A consumer as a background task of a service (started after the app is built, stopped before the bus closes). */
export function consumerTask<Data extends z.ZodType>(
  bus: Bus,
  options: ConsumerOptions<Data>,
): { start(): Promise<void>; stop(): Promise<void> } {
  let running: RunningConsumer | undefined;
  return {
    async start() {
      running = await startConsumer(bus, options);
    },
    async stop() {
      await running?.stop();
    },
  };
}
