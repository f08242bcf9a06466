import { FastifyOtelInstrumentation } from '@fastify/otel';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Probes and scrapes: every few seconds from balancers and Prometheus, never part of a request's story. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const isProbe = (url: string | undefined) => PROBE_PATHS.has((url ?? '').split('?')[0] ?? '');

/**
 * The SDK, tracing only (metrics stay with prom-client, logs with pino): exporter, protocol, sampler and batching
 * come from the standard OTEL_* variables. Loaded only when tracing is on, so a process without it never loads
 * the SDK. Spans that would start a trace of their own from background work (the relay's polls, the sweeper's
 * deletes, the gateway's replica probes) are not made: database and outgoing spans need a parent.
 */
export function createNodeSdk(serviceName: string | undefined): NodeSDK {
  return new NodeSDK({
    ...(serviceName !== undefined && { serviceName }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => isProbe(request.url),
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Fastify 5: the official successor of @opentelemetry/instrumentation-fastify (which stops at 4). It hooks
      // every Fastify instance as it is created (a diagnostics channel), so no app code registers it.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        ignorePaths: (route) => isProbe(route.url),
      }),
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
}
