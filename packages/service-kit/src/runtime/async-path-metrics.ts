import type { JetStreamManager } from '@nats-io/jetstream';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a NATS request ended: a reply, an error reply (an AppError from the other service), or no answer in time. */
export type RequestOutcome = 'ok' | 'error' | 'unavailable';

/** A scrape asks the database and NATS; one that does not answer within this leaves the last values, not a hung scrape. */
const COLLECT_TIMEOUT_MS = 1000;

const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The async path's metrics, beside the HTTP ones on every service's `/metrics`: outbox backlog and relay publishes,
 * each durable consumer's backlog and redeliveries, dead letters, NATS request latency and the database pool.
 * Gauges that read state (outbox, consumers, pool) are read at scrape time, so the hot paths pay nothing for them;
 * the hot paths only observe a histogram or bump a counter.
 */
export class AsyncPathMetrics {
  readonly registry = new Registry();
  private readonly consumers = new Map<string, { jsm: JetStreamManager; stream: string; durable: string }>();
  private readonly requestDuration: Histogram<'subject' | 'outcome'>;
  private readonly relayDuration: Histogram<'outcome'>;
  private readonly relayPublished: Counter;
  private readonly deadLetters: Counter<'consumer' | 'type'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    const registers = [this.registry];
    this.requestDuration = new Histogram({
      name: 'nats_request_duration_seconds',
      help: 'NATS requests this service sent, by subject and outcome (ok, error reply, unavailable: no answer in time)',
      labelNames: ['subject', 'outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.relayDuration = new Histogram({
      name: 'outbox_relay_publish_duration_seconds',
      help: 'Outbox relay batches: claiming the rows, publishing them to JetStream with acks, marking them; by outcome',
      labelNames: ['outcome'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.relayPublished = new Counter({
      name: 'outbox_relay_published_events_total',
      help: 'Domain events the outbox relay published to JetStream',
      registers,
    });
    this.deadLetters = new Counter({
      name: 'events_dead_lettered_total',
      help: 'Events a consumer gave up on and moved to its dead-letter stream, by consumer and event type',
      labelNames: ['consumer', 'type'],
      registers,
    });
    this.consumerGauges();
  }

  observeRequest(subject: string, outcome: RequestOutcome, seconds: number): void {
    this.requestDuration.observe({ subject, outcome }, seconds);
  }

  observeRelayBatch(published: number, failed: boolean, seconds: number): void {
    this.relayDuration.observe({ outcome: failed ? 'error' : 'ok' }, seconds);
    this.relayPublished.inc(published);
  }

  /** A counter of the service's own (calendar-sync's sync outcomes), on the same `/metrics`. */
  counter<Label extends string>(name: string, help: string, labelNames: readonly Label[]): LabelledCounter<Label> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  countDeadLetter(consumer: string, type: string): void {
    this.deadLetters.inc({ consumer, type });
  }

  /**
   * Reports a durable consumer's backlog from now on. The durable lives on the server when its consumer stops, so its
   * backlog keeps being reported (and keeps growing) until the service stops.
   */
  watchConsumer(jsm: JetStreamManager, stream: string, durable: string): void {
    this.consumers.set(durable, { jsm, stream, durable });
  }

  /** Reports the service's outbox backlog (every service schema has the kit's outbox) and its pool's connections. */
  watchDatabase(pool: pg.Pool): void {
    const registers = [this.registry];
    let backlog: Promise<{ pending: number; oldest: number; dead: number }> | undefined;
    // The outbox gauges come from one query per scrape.
    const readBacklog = () =>
      (backlog ??= withinTimeout(
        pool.query<{ pending: number; oldest: number; dead: number }>(
          `SELECT count(*) FILTER (WHERE dead_at IS NULL)::int AS pending,
                  COALESCE(extract(epoch FROM now() - min(created_at) FILTER (WHERE dead_at IS NULL)), 0)::float8 AS oldest,
                  count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead
             FROM outbox WHERE published_at IS NULL`,
        ),
      )
        .then(({ rows: [row] }) => row ?? { pending: 0, oldest: 0, dead: 0 })
        .finally(() => (backlog = undefined)));
    // The pool's gauges first: a scrape reads them before the outbox query takes a connection of its own.
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (in_use, idle)',
      labelNames: ['state'],
      registers,
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a free database pool connection',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: 'outbox_pending_events',
      help: 'Domain events written to the outbox and not yet published to JetStream',
      registers,
      async collect() {
        await readBacklog().then(({ pending }) => this.set(pending), ignore);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest unpublished outbox event (0 when none is waiting)',
      registers,
      async collect() {
        await readBacklog().then(({ oldest }) => this.set(oldest), ignore);
      },
    });
    new Gauge({
      name: 'outbox_dead_events',
      help: 'Domain events set aside in the outbox: the broker refused them for good or again and again (see `npm run dlq`)',
      registers,
      async collect() {
        await readBacklog().then(({ dead }) => this.set(dead), ignore);
      },
    });
  }

  private consumerGauges(): void {
    const registers = [this.registry];
    const consumers = this.consumers;
    let reading: Promise<ConsumerState[]> | undefined;
    // The three gauges come from one consumer info request per durable per scrape.
    const readConsumers = () =>
      (reading ??= Promise.all(
        [...consumers.values()].map(async ({ jsm, stream, durable }) => {
          const info = await withinTimeout(jsm.consumers.info(stream, durable)).catch(() => null);
          return { durable, info };
        }),
      ).finally(() => (reading = undefined)));
    const gauge = (name: string, help: string, read: (info: ConsumerInfoCounts) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['consumer'],
        registers,
        async collect() {
          this.reset(); // a durable that is gone (deleted by hand) disappears rather than showing its last backlog
          for (const { durable, info } of await readConsumers()) if (info) this.set({ consumer: durable }, read(info));
        },
      });
    gauge(
      'nats_consumer_pending_messages',
      'Messages in the stream this durable consumer has not been delivered yet',
      (i) => i.num_pending,
    );
    gauge(
      'nats_consumer_ack_pending_messages',
      'Messages delivered to this durable consumer and not acknowledged yet',
      (i) => i.num_ack_pending,
    );
    gauge(
      'nats_consumer_redelivered_messages',
      'Messages awaiting acknowledgement that were delivered to this durable consumer more than once',
      (i) => i.num_redelivered,
    );
  }
}

export interface LabelledCounter<Label extends string> {
  inc(labels: Record<Label, string>, value?: number): void;
}

interface ConsumerInfoCounts {
  num_pending: number;
  num_ack_pending: number;
  num_redelivered: number;
}

interface ConsumerState {
  durable: string;
  info: ConsumerInfoCounts | null;
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('metrics source did not answer in time')), COLLECT_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A source that is down keeps its gauges' last values; the scrape still succeeds. */
const ignore = () => undefined;
