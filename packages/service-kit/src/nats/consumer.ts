import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { StreamContract } from '@app/contracts';
import type pg from 'pg';
import { withTransaction } from '../db/transaction.js';
import { ArrivalQueue } from './arrival-queue.js';
import type { Bus } from './bus.js';
import { receiveEvent, type EventHandler } from './event-handler.js';
import { isJetStreamApiError, JetStreamCode } from './jetstream-errors.js';
import { tracedEvent, type TracedEvent } from './event-span.js';

export interface ConsumerOptions {
  /** Durable consumer name; also the inbox key, so it must stay stable across deploys. */
  durable: string;
  stream: StreamContract;
  /** One `eventHandler(contract, handle)` per event contract consumed; each event goes to its subject's handler. */
  handlers: readonly EventHandler[];
  pool: pg.Pool;
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
 * Each event is handled in a CONSUMER span of its own (`process <subject>`), child of its publish span (the
 * message's traceparent), batched or not. The stream is its publisher's: a consumer never creates it (its NATS
 * user may not), so this fails with JetStream's StreamNotFound until the publisher has started once;
 * `consumerTask` waits for that.
 */
export async function startConsumer(bus: Bus, options: ConsumerOptions): Promise<RunningConsumer> {
  const stream = bus.streamName(options.stream.name);
  const durable = bus.streamName(options.durable);
  const maxDeliver = options.maxDeliver ?? 20;
  const [only] = options.handlers;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    // One subject: filter on the server. Several: take the whole stream and skip what is not ours
    // (filter_subjects would need nats-server 2.10; Debian ships 2.9).
    ...(options.handlers.length === 1 && only ? { filter_subject: bus.subject(only.contract.subject) } : {}),
    max_deliver: maxDeliver,
    ack_wait: 30_000_000_000,
  };
  await bus.jsm.consumers.add(stream, config).catch(async (error: unknown) => {
    // A durable that exists with an older config (a deploy changed it) is updated in place. nats-server 2.9
    // ignores the create action and updates it itself; 2.10+ refuses the create with one of these codes.
    if (!isJetStreamApiError(error, JetStreamCode.ConsumerAlreadyExists, JetStreamCode.ConsumerNameExist)) throw error;
    const { durable_name: _name, deliver_policy: _policy, ...updatable } = config;
    await bus.jsm.consumers.update(stream, durable, updatable);
  });
  const consumer = await bus.js.consumers.get(stream, durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  const handlers: Handlers = new Map(options.handlers.map((handler) => [bus.subject(handler.contract.subject), handler]));

  const queue = new ArrivalQueue<JsMsg>();
  const reading = (async () => {
    for await (const msg of messages) queue.push(msg);
  })().finally(() => queue.end());
  const applying = (async () => {
    for (let batch = await queue.takeAll(); batch.length > 0; batch = await queue.takeAll())
      await processBatch(bus, options, handlers, batch, maxDeliver);
  })();
  return {
    async stop() {
      await messages.close();
      await reading.catch(() => undefined);
      await applying.catch(() => undefined);
    },
  };
}

/** Handlers by prefixed subject: how an event finds its handler. */
type Handlers = Map<string, EventHandler>;

async function processBatch(bus: Bus, options: ConsumerOptions, handlers: Handlers, batch: JsMsg[], maxDeliver: number): Promise<void> {
  const ours = batch.filter((msg) => handlers.has(msg.subject));
  const events = ours.map((msg) => receive(msg, handlers, options.durable)).filter((event) => event !== null);
  if (ours.length < 2 || events.length < ours.length) {
    // Nothing to gain, or a malformed event to terminate on its own: the one-by-one path.
    for (const msg of batch) await processMessage(bus, options, handlers, msg, maxDeliver);
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
      for (const event of events) {
        const fresh = unseen.delete(event.id.toLowerCase());
        await event.traced(() => (fresh ? event.apply(tx) : Promise.resolve()), { duplicate: !fresh });
      }
    });
  } catch {
    // Which event failed is unknown here: one by one, each gets its own ack or nak.
    for (const msg of batch) await processMessage(bus, options, handlers, msg, maxDeliver);
    return;
  }
  for (const msg of batch) msg.ack();
}

async function processMessage(bus: Bus, options: ConsumerOptions, handlers: Handlers, msg: JsMsg, maxDeliver: number): Promise<void> {
  if (!handlers.has(msg.subject)) {
    msg.ack(); // another event type of the same stream: not this consumer's business
    return;
  }
  const event = receive(msg, handlers, options.durable);
  if (!event) {
    bus.log.error({ subject: msg.subject, consumer: options.durable, seq: msg.seq }, 'malformed event terminated');
    msg.term(); // no reason text: nats-server 2.9 ignores a +TERM that carries one
    return;
  }
  try {
    await event.traced(() =>
      withTransaction(options.pool, async (tx) => {
        const { rowCount } = await tx.query('INSERT INTO inbox (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING', [
          options.durable,
          event.id,
        ]);
        if (rowCount === 1) await event.apply(tx);
      }),
    );
    msg.ack();
  } catch (error) {
    const attempt = msg.info.deliveryCount;
    const level = attempt >= maxDeliver ? 'error' : 'warn';
    bus.log[level]({ err: error, event_id: event.id, type: event.type, attempt }, 'event handling failed');
    msg.nak(Math.min(30_000, 250 * 2 ** attempt));
  }
}

function receive(msg: JsMsg, handlers: Handlers, durable: string): TracedEvent | null {
  const handler = handlers.get(msg.subject);
  const event = handler ? receiveEvent(msg, handler) : null;
  return handler && event ? tracedEvent(msg, event, handler.contract.subject, durable) : null;
}

/**
 * A consumer as a background task of a service (started after the app is built, stopped before the bus closes).
 * When its stream does not exist yet (the publishing service has never run), the service starts all the same and
 * the consumer keeps trying in the background until the stream appears; any other failure stops the start.
 */
export function consumerTask(bus: Bus, options: ConsumerOptions & { retryMs?: number }): { start(): Promise<void>; stop(): Promise<void> } {
  let running: RunningConsumer | undefined;
  let stopped = false;
  let waiting: Promise<void> | undefined;
  let wake = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => (clearTimeout(timer), resolve());
    });
  const streamMissing = (error: unknown) => isJetStreamApiError(error, JetStreamCode.StreamNotFound);
  return {
    async start() {
      try {
        running = await startConsumer(bus, options);
        return;
      } catch (error) {
        if (!streamMissing(error)) throw error;
      }
      const stream = bus.streamName(options.stream.name);
      bus.log.warn({ consumer: options.durable, stream }, 'stream not created by its publisher yet; the consumer waits for it');
      waiting = (async () => {
        while (!stopped) {
          await pause(options.retryMs ?? 2000);
          if (stopped) return;
          try {
            running = await startConsumer(bus, options);
            bus.log.info({ consumer: options.durable, stream }, 'stream appeared; consuming');
            return;
          } catch (error) {
            if (!streamMissing(error))
              bus.log.error({ err: error, consumer: options.durable, stream }, 'consumer could not start; retrying');
          }
        }
      })();
    },
    async stop() {
      stopped = true;
      wake();
      await waiting;
      await running?.stop();
    },
  };
}
