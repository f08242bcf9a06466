import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { defineEvent, defineRequest, defineStream } from '@app/contracts';
import { eventHandler, OutboxRelay, recordEvent, startConsumer, withTransaction, type Bus, type RunningConsumer } from '../src/index.js';
import { inMemoryTracing } from './support/in-memory-tracing.js';
import { eventually, kitBus, kitSchema } from './support/kit-env.js';

const lookup = defineRequest('kit.traced.get', z.object({}), z.object({ trace_id: z.string().nullable() }));
const happened = defineEvent('kit.traced.happened', z.object({ n: z.number().int() }));
const STREAM = defineStream('KIT_TRACED', [happened]);

const tracer = trace.getTracer('kit-test');
/** Runs `work` in a span of the test's own, as a request's span would be in a service. */
const inRequestSpan = <T>(name: string, work: () => Promise<T>) =>
  tracer.startActiveSpan(name, async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('trace context over NATS and the outbox', () => {
  let tracing: ReturnType<typeof inMemoryTracing>;
  let server: Bus;
  let client: Bus;
  let schema: Awaited<ReturnType<typeof kitSchema>>;
  let consumer: RunningConsumer;
  const handledIn = new Map<number, string | undefined>();

  beforeAll(async () => {
    tracing = inMemoryTracing();
    const prefix = `kit_trace_${Date.now()}`;
    server = await kitBus({ prefix });
    client = await kitBus({ prefix });
    await server.serve(lookup, async () => ({ trace_id: trace.getActiveSpan()?.spanContext().traceId ?? null }));
    await server.nc.flush();
    schema = await kitSchema();
  });
  afterAll(async () => {
    await consumer?.stop();
    await client.close();
    await server.close();
    await schema.close();
    await tracing.stop();
  });

  it("when a request is sent inside a span, then the endpoint's SERVER span is a child of the caller's CLIENT span", async () => {
    const reply = await inRequestSpan('caller', () => client.request(lookup, {}));

    const spans = tracing.spans().filter((s) => s.name === lookup.subject);
    const sent = spans.find((s) => s.kind === SpanKind.CLIENT);
    const served = spans.find((s) => s.kind === SpanKind.SERVER);
    const caller = tracing.spans().find((s) => s.name === 'caller');
    expect(parentOf(sent!)).toBe(caller?.spanContext().spanId);
    expect(parentOf(served!)).toBe(sent?.spanContext().spanId);
    expect(served?.spanContext().traceId).toBe(caller?.spanContext().traceId);
    expect(reply.trace_id).toBe(caller?.spanContext().traceId); // the handler ran inside the SERVER span
  });

  it('when events are recorded in three traces and relayed in one batch, then each publish and each handling joins its own trace', async () => {
    const writers = [];
    for (const n of [1, 2, 3])
      writers.push(
        await inRequestSpan(`write ${n}`, async () => {
          await withTransaction(schema.pool, (tx) => recordEvent(tx, happened, { n }, { organizationId: randomUUID() }));
          return trace.getActiveSpan()!.spanContext();
        }),
      );
    const { rows } = await schema.pool.query<{ traceparent: string }>('SELECT traceparent FROM outbox ORDER BY seq');
    expect(rows.map((row) => row.traceparent)).toEqual(writers.map((w) => `00-${w.traceId}-${w.spanId}-01`));

    const relay = new OutboxRelay({ pool: schema.pool, bus: server, stream: STREAM });
    await server.ensureStream(STREAM);
    expect(await relay.publishBatch()).toEqual({ claimed: 3, published: 3, failure: undefined, outage: false });
    // Started after all three are in the stream, so they arrive together and are applied as one batch.
    consumer = await startConsumer(client, {
      durable: 'kit-traced',
      stream: STREAM,
      pool: schema.pool,
      handlers: [eventHandler(happened, async (event) => void handledIn.set(event.data.n, trace.getActiveSpan()?.spanContext().traceId))],
    });
    await eventually(async () => (handledIn.size === 3 ? true : undefined));

    for (const [index, writer] of writers.entries()) {
      const n = index + 1;
      const inTrace = tracing.spans().filter((s) => s.spanContext().traceId === writer.traceId);
      const published = inTrace.find((s) => s.kind === SpanKind.PRODUCER && s.name === `publish ${happened.subject}`);
      const processed = inTrace.find((s) => s.kind === SpanKind.CONSUMER && s.name === `process ${happened.subject}`);
      expect(parentOf(published!)).toBe(writer.spanId);
      expect(parentOf(processed!)).toBe(published?.spanContext().spanId);
      expect(handledIn.get(n)).toBe(writer.traceId);
    }
  });
});
