import { connect } from '@nats-io/transport-node';
import { headers as natsHeaders, type Msg, type NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { FastifyBaseLogger } from 'fastify';
import { REQUEST_ID_HEADER, replyEnvelopeSchema, type RequestContract, type StreamContract } from '@app/contracts';
import type { z } from 'zod';
import { AppError } from '../errors.js';

export interface BusOptions {
  url: string;
  /** Prepended to subjects and stream names (isolates test runs). */
  prefix: string;
  /** Used as the queue group of request endpoints and the connection name. */
  service: string;
  requestTimeoutMs: number;
  log: FastifyBaseLogger;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The service's NATS connection: request-reply with contracts, JetStream publishing and streams. */
export class Bus {
  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    private readonly options: BusOptions,
  ) {}

  static async connect(options: BusOptions): Promise<Bus> {
    const nc = await connect({
      servers: options.url,
      name: options.service,
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
      }
    })();
    return new Bus(nc, jetstream(nc), await jetstreamManager(nc), options);
  }

  get log(): FastifyBaseLogger {
    return this.options.log;
  }

  subject(name: string): string {
    return this.options.prefix ? `${this.options.prefix}.${name}` : name;
  }

  streamName(name: string): string {
    return this.options.prefix ? `${this.options.prefix}_${name}` : name;
  }

  /** Sends a request and validates the reply; an error reply becomes that AppError, no answer in time a 503. */
  async request<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    payload: z.input<Req>,
    requestId?: string,
  ): Promise<z.output<Res>> {
    const body = contract.request.parse(payload);
    const h = natsHeaders();
    if (requestId) h.set(REQUEST_ID_HEADER, requestId);
    let reply: Msg;
    try {
      reply = await this.nc.request(this.subject(contract.subject), encoder.encode(JSON.stringify(body)), {
        timeout: this.options.requestTimeoutMs,
        headers: h,
      });
    } catch (error) {
      this.log.warn({ err: error, subject: contract.subject }, 'NATS request failed');
      throw new AppError('UPSTREAM_UNAVAILABLE', 'A service this request needs did not answer in time');
    }
    const envelope = replyEnvelopeSchema.safeParse(safeJson(reply.data));
    if (envelope.success && !envelope.data.ok) {
      const { code, message, status } = envelope.data.error;
      throw new AppError(code, message, status);
    }
    const data = envelope.success && envelope.data.ok ? contract.reply.safeParse(envelope.data.data) : undefined;
    if (!data?.success) {
      this.log.error({ subject: contract.subject }, 'malformed NATS reply');
      throw new AppError('INTERNAL', 'Internal server error');
    }
    return data.data as z.output<Res>;
  }

  /** Answers `contract.subject` in the service's queue group, so replicas share the load. */
  serve<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    handler: (request: z.output<Req>, requestId: string | undefined) => Promise<z.input<Res>>,
  ): void {
    this.nc.subscribe(this.subject(contract.subject), {
      queue: this.options.service,
      callback: (error, msg) => {
        if (error) return this.log.error({ err: error }, 'NATS subscription error');
        void this.answer(contract, handler, msg);
      },
    });
  }

  private async answer<Req extends z.ZodType, Res extends z.ZodType>(
    contract: RequestContract<Req, Res>,
    handler: (request: z.output<Req>, requestId: string | undefined) => Promise<z.input<Res>>,
    msg: Msg,
  ): Promise<void> {
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
    const respond = (body: unknown) => msg.respond(encoder.encode(JSON.stringify(body)));
    try {
      const request = contract.request.safeParse(safeJson(msg.data));
      if (!request.success) throw new AppError('VALIDATION_ERROR', `Malformed ${contract.subject} request`);
      const data = contract.reply.parse(await handler(request.data, requestId));
      respond({ ok: true, data });
    } catch (error) {
      if (error instanceof AppError) {
        respond({ ok: false, error: { code: error.code, status: error.status, message: error.message } });
        return;
      }
      this.log.error({ err: error, subject: contract.subject, request_id: requestId }, 'NATS handler failed');
      respond({ ok: false, error: { code: 'INTERNAL', status: 500, message: 'Internal server error' } });
    }
  }

  /** Creates the stream, or brings its subjects up to date; both publisher and consumers call it. */
  async ensureStream(stream: StreamContract): Promise<string> {
    const name = this.streamName(stream.name);
    const subjects = stream.subjects.map((s) => this.subject(s));
    try {
      const info = await this.jsm.streams.info(name);
      const missing = subjects.filter((s) => !info.config.subjects?.includes(s));
      if (missing.length > 0)
        await this.jsm.streams.update(name, { ...info.config, subjects: [...(info.config.subjects ?? []), ...missing] });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await this.jsm.streams.add({ name, subjects, duplicate_window: 2 * 60 * 1_000_000_000 });
    }
    return name;
  }

  /** Publishes one domain event; JetStream drops a second copy with the same msgID inside the duplicate window. */
  async publish(subject: string, payload: unknown, msgID: string): Promise<void> {
    await this.js.publish(this.subject(subject), encoder.encode(JSON.stringify(payload)), {
      msgID,
      timeout: this.options.requestTimeoutMs,
    });
  }

  async close(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(data));
  } catch {
    return undefined;
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && /not found/i.test(error.message);
}
