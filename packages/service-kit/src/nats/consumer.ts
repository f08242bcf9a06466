import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { StreamContract } from '@app/contracts';
import type pg from 'pg';
import { namedStatement } from '../db/statements.js';
import { withTransaction } from '../db/transaction.js';
import { ArrivalQueue } from './arrival-queue.js';
import type { Bus } from './bus.js';
import { handleFailure, rejectMalformed, type FailureContext } from './consumer-failures.js';
import { DeadLetterHeader } from './dead-letter-naming.js';
import { ensureDeadLetterStream } from './dead-letter.js';
import { tracedEvent, type TracedEvent } from './event-span.js';
import { receiveEvent, type EventHandler } from './event-handler.js';
import { isJetStreamApiError, JetStreamCode } from './jetstream-errors.js';
import type { RetrySchedule } from './retry-schedule.js';
import { KIT_TUNING } from '../tuning.js';

export interface ConsumerOptions {
  /** Durable consumer name; also the inbox key, so it must stay stable across deploys. */
  durable: string;
  stream: StreamContract;
  /** One `eventHandler(contract, handle)` per event contract consumed; each event goes to its subject's handler. */
  handlers: readonly EventHandler[];
  pool: pg.Pool;
  /** The backoff between deliveries of an event failing for a transient reason (`infra.tuning.consumerRetry`). */
  retry?: RetrySchedule;
  /**
   * Called once per dead-lettered event, with the durable and the event type (its contract's subject), besides the
   * count the bus's metrics keep (`events_dead_lettered_total{consumer,type}`).
   */
  onDeadLetter?: (consumer: string, type: string) => void;
  /**
   * Which of these organizations (lower-case ids) this consumer's events can have an effect for. When given, the
   * events of the others are acked without a transaction or an inbox row: for a consumer whose effect needs state
   * most organizations lack (webhooks: an enabled endpoint), their events cost one read instead of a write. Asked
   * before each batch is applied, so the answer is as of then, as the handler's own reads would be; if it fails,
   * every event is applied as usual (where a database that is away shows, and is retried).
   */
  organizationsConcerned?: (organizationIds: string[]) => Promise<ReadonlySet<string>>;
  /**
   * Batches start at least this far apart (default 0: each as soon as the last is done). Events arriving one at a
   * time, faster than that, are then applied several to a transaction (BEGIN, inbox, effects, COMMIT) and their acks
   * sent together; an event after a quiet spell is applied at once. For a consumer whose effect no one waits on to the
   * millisecond (a projection, a calendar write-back): it costs up to this much latency under load.
   */
  minBatchGapMs?: number;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * A durable JetStream consumer with explicit acks: processed → ack; malformed, or a handler failure that is not
 * transient → dead letter, then term (consumer-failures.ts); a transient failure (database or NATS away) → nak with
 * capped backoff, without limit (no max_deliver: nothing is ever dropped); a redelivered event whose id is in the
 * inbox → ack without a second effect; an event replayed from the dead letters of another durable → ack.
 * Events that arrived while the previous ones were being applied are applied together, in order, in one
 * transaction (one inbox statement for all): under load that turns four round trips per event into about
 * one. When such a batch fails, its events are applied one by one, so only the failing one is retried. With
 * `organizationsConcerned`, the events of organizations it leaves out are acked before, with no effect and no inbox row.
 * Each event is handled in a CONSUMER span of its own (`process <subject>`), child of its publish span (the
 * message's traceparent), batched or not. The stream is its publisher's: a consumer never creates it (its NATS
 * user may not), so this fails with JetStream's StreamNotFound until the publisher has started once;
 * `consumerTask` waits for that.
 */
export async function startConsumer(bus: Bus, options: ConsumerOptions): Promise<RunningConsumer> {
  const stream = bus.streamName(options.stream.name);
  const durable = bus.streamName(options.durable);
  const [only] = options.handlers;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    // One subject: filter on the server. Several: take the whole stream and skip what is not ours
    // (filter_subjects would need nats-server 2.10; Debian ships 2.9).
    ...(options.handlers.length === 1 && only ? { filter_subject: bus.subject(only.contract.subject) } : {}),
    max_deliver: -1, // unlimited: an event that cannot be applied goes to the dead letters, never away
    ack_wait: 30_000_000_000,
  };
  await bus.jsm.consumers.add(stream, config).catch(async (error: unknown) => {
    // A durable that exists with an older config (a deploy changed it) is updated in place. nats-server 2.9
    // ignores the create action and updates it itself; 2.10+ refuses the create with one of these codes.
    if (!isJetStreamApiError(error, JetStreamCode.ConsumerAlreadyExists, JetStreamCode.ConsumerNameExist)) throw error;
    const { durable_name: _name, deliver_policy: _policy, ...updatable } = config;
    await bus.jsm.consumers.update(stream, durable, updatable);
  });
  await ensureDeadLetterStream(bus);
  const consumer = await bus.js.consumers.get(stream, durable);
  bus.metrics?.watchConsumer(bus.jsm, stream, durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: PULL_BATCH });
  const handlers: Handlers = new Map(options.handlers.map((handler) => [bus.subject(handler.contract.subject), handler]));
  const failures: FailureContext = {
    bus,
    durable: options.durable,
    retry: options.retry ?? KIT_TUNING.consumerRetry,
    onDeadLetter: (consumer, type) => {
      bus.metrics?.countDeadLetter(consumer, type); // events_dead_lettered_total on the service's /metrics
      options.onDeadLetter?.(consumer, type);
    },
  };
  const ours = (msg: JsMsg) =>
    handlers.has(msg.subject) && (msg.headers?.get(DeadLetterHeader.replayFor) || options.durable) === options.durable;

  // At most one pull batch waits beside the one being applied: a backlog stays on the server, and no message waits
  // here until its ack_wait runs out and the server sends it again.
  const queue = new ArrivalQueue<JsMsg>(PULL_BATCH);
  const reading = (async () => {
    for await (const msg of messages) await queue.push(msg);
  })().finally(() => queue.end());
  const applying = (async () => {
    let lastStart = Number.NEGATIVE_INFINITY;
    const restOfGap = () => (options.minBatchGapMs ?? 0) - (performance.now() - lastStart);
    for (let batch = await queue.takeAll(restOfGap); batch.length > 0; batch = await queue.takeAll(restOfGap)) {
      lastStart = performance.now();
      await processBatch({ options, handlers, failures, ours }, batch);
    }
  })();
  return {
    async stop() {
      await messages.close();
      await reading.catch(() => undefined);
      await applying.catch(() => undefined);
    },
  };
}

/** Messages a pull asks for, and how many may wait to be applied. */
const PULL_BATCH = 64;

/** Handlers by prefixed subject: how an event finds its handler. */
type Handlers = Map<string, EventHandler>;

interface Processing {
  options: ConsumerOptions;
  handlers: Handlers;
  failures: FailureContext;
  /** An event of this consumer: a subject it handles, and not a replay meant for another durable. */
  ours: (msg: JsMsg) => boolean;
}

async function processBatch(p: Processing, received: JsMsg[]): Promise<void> {
  // Each message of ours read once: null when malformed.
  const read = new Map(received.filter(p.ours).map((msg) => [msg, receive(msg, p.handlers, p.options.durable)] as const));
  const batch = await ackUnconcerned(p, received, read);
  const ours = batch.filter(p.ours);
  const events = ours.map((msg) => read.get(msg) ?? null).filter((event) => event !== null);
  if (ours.length < 2 || events.length < ours.length) {
    // Nothing to gain, or a malformed event to dead-letter on its own: the one-by-one path.
    for (const msg of batch) await processMessage(p, msg);
    return;
  }
  try {
    await withTransaction(p.options.pool, async (tx) => {
      const { rows: fresh } = await tx.query<{ event_id: string }>(
        namedStatement(
          `INSERT INTO inbox (consumer, event_id) SELECT $1, id FROM unnest($2::uuid[]) AS id
           ON CONFLICT DO NOTHING RETURNING event_id::text`,
          [p.options.durable, events.map((event) => event.id)],
        ),
      );
      // An id twice in one batch (a redelivery) is applied once; uuids come back in lower case.
      const unseen = new Set(fresh.map((row) => row.event_id));
      for (const event of events) {
        const fresh = unseen.delete(event.id.toLowerCase());
        await event.traced(() => (fresh ? event.apply(tx) : Promise.resolve()), { duplicate: !fresh });
      }
    });
  } catch {
    // Which event failed is unknown here: one by one, each gets its own ack, nak or dead letter.
    for (const msg of batch) await processMessage(p, msg);
    return;
  }
  for (const msg of batch) msg.ack();
}

/**
 * Acks the events of the batch whose organization the consumer has nothing to do for (`organizationsConcerned`),
 * each in its span, and returns the rest. Malformed messages and other consumers' events stay for the usual path.
 */
async function ackUnconcerned(p: Processing, batch: JsMsg[], events: ReadonlyMap<JsMsg, TracedEvent | null>): Promise<JsMsg[]> {
  const concerned = p.options.organizationsConcerned;
  if (!concerned) return batch;
  const organizations = [...new Set([...events.values()].flatMap((event) => (event ? [event.organizationId] : [])))];
  if (organizations.length === 0) return batch;
  const wanted = await concerned(organizations).catch(() => null);
  if (!wanted) return batch;
  const rest: JsMsg[] = [];
  const unconcerned: JsMsg[] = [];
  for (const msg of batch) {
    const event = events.get(msg);
    if (!event || wanted.has(event.organizationId)) {
      rest.push(msg);
      continue;
    }
    await event.traced(() => Promise.resolve());
    unconcerned.push(msg);
  }
  // Acked together: the client writes what was queued once the current microtasks are done, so acks sent with no
  // await between them leave in one socket write, where an ack after each span's await took a write (and a read
  // on the server) each: the webhooks service's CPU per booking under a burst went 0.09-0.10 → 0.07-0.08 ms.
  for (const msg of unconcerned) msg.ack();
  return rest;
}

async function processMessage(p: Processing, msg: JsMsg): Promise<void> {
  const handler = p.handlers.get(msg.subject);
  if (!handler || !p.ours(msg)) {
    msg.ack(); // another event type of the same stream, or another durable's replay: not this consumer's business
    return;
  }
  const event = receive(msg, p.handlers, p.options.durable);
  if (!event) {
    await rejectMalformed(p.failures, msg, handler);
    return;
  }
  try {
    await event.traced(() =>
      withTransaction(p.options.pool, async (tx) => {
        const { rowCount } = await tx.query(
          namedStatement('INSERT INTO inbox (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING', [
            p.options.durable,
            event.id,
          ]),
        );
        if (rowCount === 1) await event.apply(tx);
      }),
    );
    msg.ack();
  } catch (error) {
    await handleFailure(p.failures, msg, event, error);
  }
}

function receive(msg: JsMsg, handlers: Handlers, durable: string): TracedEvent | null {
  const handler = handlers.get(msg.subject);
  const event = handler ? receiveEvent(msg, handler) : null;
  return handler && event ? tracedEvent(msg, event, handler.contract.subject, durable) : null;
}
