import { connect } from '@nats-io/transport-node';
import { headers as natsHeaders, type Msg, type NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Svcm, type Service } from '@nats-io/services';
import type { FastifyBaseLogger } from 'fastify';
import { REQUEST_ID_HEADER, type RequestContract, type ServiceTopology, type StreamContract } from '@app/contracts';
import type { z } from 'zod';
import { baseConfigFields, streamLimitsOf } from '../config.js';
import { AppError } from '../errors.js';
import type { AsyncPathMetrics, RequestOutcome } from '../runtime/async-path-metrics.js';
import { registerBrokerLimit } from '../outbox/broker-limit.js';
import { addEndpoint, type RequestHandler } from './endpoint.js';
import { isJetStreamApiError, JetStreamCode } from './jetstream-errors.js';
import { inboxPrefix, prefixedName, prefixedSubject } from './naming.js';
import { readReply } from './reply-envelope.js';
import { natsServers } from './servers.js';
import { streamLimitsConfig, type StreamKind, type StreamLimits } from './stream-limits.js';
import { inSpan, natsAttributes, SpanKind } from '../telemetry/spans.js';
import { injectTraceHeaders, traceHeaders } from '../telemetry/trace-context.js';

export interface BusOptions {
  url: string;
  /** Prepended to subjects and stream names (isolates test runs). */
  prefix: string;
  /** The connection's name, and the name and queue group of the micro service its endpoints make up. */
  service: string;
  /** The service's NATS user (NATS_USER / NATS_PASSWORD); unset: an unauthenticated connection (`npm start`). */
  credentials?: { user: string; password: string };
  /**
   * What the service may do on NATS (`topologyOf(service)` from @app/contracts). Given, serving, calling or publishing
   * anything it does not list fails at once, on any server: the service's NATS user would be refused it anyway.
   */
  topology?: ServiceTopology;
  requestTimeoutMs: number;
  /**
   * The limits of the stream `ensureStream` creates, and brings an existing one to (NATS_STREAM_MAX_AGE_HOURS,
   * NATS_STREAM_MAX_BYTES). Unset (a test's neighbour playing a publisher): a new stream gets the config's defaults
   * and an existing one keeps its limits.
   */
  streamLimits?: StreamLimits;
  /** Where requests' durations and consumers' backlogs are reported (the infrastructure's); unset in bare tests. */
  metrics?: AsyncPathMetrics;
  log: FastifyBaseLogger;
}

/** The config's defaults (7 days, 1 GiB), for a bus given no limits. */
const DEFAULT_STREAM_LIMITS = streamLimitsOf(
  baseConfigFields.pick({ NATS_STREAM_MAX_AGE_HOURS: true, NATS_STREAM_MAX_BYTES: true }).parse({}),
);

const encoder = new TextEncoder();
// The micro protocol wants a semver; services are deployed whole, so endpoints are told apart by subject, not version.
const MICRO_VERSION = '1.0.0';

/** The service's NATS connection: request-reply with contracts (a NATS micro service), JetStream publishing and streams. */
export class Bus {
  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    private readonly options: BusOptions,
  ) {}

  /** The micro service of the endpoints this bus serves; added at the first `serve`. */
  private micro: Promise<Service> | undefined;

  static async connect(options: BusOptions): Promise<Bus> {
    const nc = await connect({
      // A cluster's servers, comma-separated in NATS_URL: the client takes them as a list (one string is one server).
      servers: natsServers(options.url),
      name: options.service,
      ...(options.credentials && { user: options.credentials.user, pass: options.credentials.password }),
      // Replies (request-reply, JetStream acks and pulls) come to inboxes only this service's user may subscribe to.
      inboxPrefix: inboxPrefix(options.service),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      timeout: 5000,
      // Otherwise every request builds two Error objects up front for their stack traces, in case it fails:
      // measured 70 → 50 µs of CPU per request-reply round trip. A failed request is logged with its subject.
      noAsyncTraces: true,
    });
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnect') options.log.warn({ nats: status.type }, 'NATS connection status');
        // A permissions violation (a subject this service's NATS user may not use) arrives here only.
        else if (status.type === 'error') options.log.error({ err: status.error }, 'NATS refused an operation');
      }
    })();
    // Connected, but JetStream did not answer: close, so a starting service that tries again leaves nothing behind.
    const manager = await jetstreamManager(nc).catch(async (error: unknown) => {
      await nc.close();
      throw error;
    });
    return new Bus(nc, jetstream(nc), manager, options);
  }

  /** Lets the outbox refuse, at write time, an event larger than this connection's server takes (assertPublishable). */
  private readonly forgetBrokerLimit = registerBrokerLimit(() => this.nc.info?.max_payload);

  get log(): FastifyBaseLogger {
    return this.options.log;
  }

  get metrics(): AsyncPathMetrics | undefined {
    return this.options.metrics;
  }

  /** The service this bus connects as (its NATS user's and its dead-letter stream's name). */
  get service(): string {
    return this.options.service;
  }

  subject(name: string): string {
    return prefixedSubject(this.options.prefix, name);
  }

  streamName(name: string): string {
    return prefixedName(this.options.prefix, name);
  }

  /**
   * Sends a request and validates the reply; an error reply becomes that AppError, no answer in time a 503.
   * A CLIENT span named after the subject covers it, and its traceparent goes in the headers (the endpoint's
   * SERVER span is its child).
   */
  async request<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    payload: z.input<Req>,
    requestId?: string,
  ): Promise<z.output<Res>> {
    this.mustBeListed('calls', contract.subject);
    const body = contract.request.parse(payload);
    return inSpan(contract.subject, { kind: SpanKind.CLIENT, attributes: natsAttributes(contract.subject) }, async () => {
      const h = natsHeaders();
      if (requestId) h.set(REQUEST_ID_HEADER, requestId);
      injectTraceHeaders(h);
      const started = performance.now();
      const observe = (outcome: RequestOutcome) =>
        this.options.metrics?.observeRequest(contract.subject, outcome, (performance.now() - started) / 1000);
      let reply: Msg;
      try {
        reply = await this.nc.request(this.subject(contract.subject), encoder.encode(JSON.stringify(body)), {
          timeout: this.options.requestTimeoutMs,
          headers: h,
        });
      } catch (error) {
        observe('unavailable');
        // A timeout, or at once when no endpoint listens on the subject (the server answers "no responders").
        this.log.warn({ err: error, subject: contract.subject }, 'NATS request failed');
        throw new AppError('UPSTREAM_UNAVAILABLE', 'A service this request needs did not answer in time');
      }
      try {
        const data = readReply(reply, contract, this.log);
        observe('ok');
        return data;
      } catch (error) {
        observe('error');
        throw error;
      }
    });
  }

  /**
   * Answers `contract.subject` as an endpoint of this service's NATS micro service (discoverable with
   * `nats micro`), in the queue group named after the service, so replicas share the load.
   */
  async serve<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    handler: RequestHandler<Req, Res>,
  ): Promise<void> {
    this.mustBeListed('serves', contract.subject);
    this.micro ??= new Svcm(this.nc).add({ name: this.options.service, version: MICRO_VERSION, queue: this.options.service });
    addEndpoint(await this.micro, this.subject(contract.subject), contract, handler, this.log);
  }

  /**
   * Creates the stream, or brings its subjects, limits (max_age, max_bytes) and duplicate window up to date, so an
   * existing deployment gets new limits at its next start. Only its publisher calls it (the outbox relay): the
   * service's NATS user may create and update its own stream only; consumers wait for theirs to exist. A consuming
   * service also ensures its dead-letter stream (`kind` 'dead-letters': kept NATS_DLQ_MAX_AGE_HOURS).
   */
  async ensureStream(stream: Pick<StreamContract, 'name' | 'subjects'>, kind: StreamKind = 'events'): Promise<string> {
    const name = this.streamName(stream.name);
    const subjects = stream.subjects.map((s) => this.subject(s));
    const given = this.options.streamLimits;
    const limits = streamLimitsConfig(given ?? DEFAULT_STREAM_LIMITS, kind);
    try {
      const info = await this.jsm.streams.info(name);
      const missing = subjects.filter((s) => !info.config.subjects?.includes(s));
      const stale = given !== undefined && (Object.keys(limits) as (keyof typeof limits)[]).some((key) => info.config[key] !== limits[key]);
      if (missing.length > 0 || stale) {
        await this.jsm.streams.update(name, {
          ...info.config,
          subjects: [...(info.config.subjects ?? []), ...missing],
          ...(stale && limits),
        });
        if (stale) this.log.info({ stream: name, ...limits }, 'stream limits updated');
      }
    } catch (error) {
      if (!isJetStreamApiError(error, JetStreamCode.StreamNotFound)) throw error;
      await this.jsm.streams.add({ name, subjects, ...limits });
    }
    return name;
  }

  /**
   * Publishes one domain event; JetStream drops a second copy with the same msgID inside the duplicate window.
   * The active trace context goes with it in the headers (the relay makes it the event's publish span), and `extra`
   * headers besides (the event's change-feed position).
   */
  async publish(subject: string, payload: unknown, msgID: string, extra: Readonly<Record<string, string>> = {}): Promise<void> {
    this.mustBeListed('publishes', subject);
    let headers = traceHeaders();
    for (const [name, value] of Object.entries(extra)) (headers ??= natsHeaders()).set(name, value);
    await this.js.publish(this.subject(subject), encoder.encode(JSON.stringify(payload)), {
      msgID,
      timeout: this.options.requestTimeoutMs,
      ...(headers && { headers }),
    });
  }

  /** Throws when the topology does not list `subject` under `what`: a programming error, found by any test. */
  private mustBeListed(what: 'serves' | 'calls' | 'publishes', subject: string): void {
    const topology = this.options.topology;
    if (!topology) return;
    const listed = what === 'publishes' ? (topology.publishes?.subjects ?? []) : topology[what].map((request) => request.subject);
    if (!listed.includes(subject))
      throw new Error(`${this.options.service} ${what} ${subject}, but its NATS topology (@app/contracts topology.ts) does not list it`);
  }

  async close(): Promise<void> {
    this.forgetBrokerLimit();
    await this.micro?.then((service) => service.stop()).catch(() => undefined);
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}
