import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { activeTraceContext, createLogger } from '../src/index.js';
import { defaultServiceName, tracingRequested } from '../src/telemetry/tracing-env.js';
import { inMemoryTracing } from './support/in-memory-tracing.js';

describe('tracingRequested (whether a service starts the SDK)', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }, false],
  ])('when the environment is %j, then %s', (env, expected) => {
    expect(tracingRequested(env)).toBe(expected);
  });

  it("when OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names the service, then that wins over the service's name", () => {
    expect(defaultServiceName({}, 'bookings')).toBe('bookings');
    expect(defaultServiceName({ OTEL_SERVICE_NAME: 'bookings-eu' }, 'bookings')).toBeUndefined();
    expect(defaultServiceName({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=b2' }, 'bookings')).toBeUndefined();
  });
});

describe('trace ids in log lines', () => {
  const captured = () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    return { lines, log: createLogger({ LOG_LEVEL: 'info' }, 'kit-test', destination) };
  };

  it('when no SDK is registered, then lines carry no trace ids and the outbox stores no trace context', () => {
    const { lines, log } = captured();
    trace.getTracer('kit-test').startActiveSpan('unrecorded', (span) => {
      log.info('inside');
      expect(activeTraceContext()).toEqual({ traceparent: null, tracestate: null });
      span.end();
    });
    expect(lines[0]).not.toHaveProperty('trace_id');
  });

  it('when a span is active, then the line carries its trace_id and span_id', async () => {
    const tracing = inMemoryTracing();
    try {
      const { lines, log } = captured();
      const ids = trace.getTracer('kit-test').startActiveSpan('logged', (span) => {
        log.info('inside');
        span.end();
        return span.spanContext();
      });
      log.info('outside');
      expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: ids.traceId, span_id: ids.spanId });
      expect(lines[1]).not.toHaveProperty('trace_id');
    } finally {
      await tracing.stop();
    }
  });
});
