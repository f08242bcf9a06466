import { createHash, timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/swagger'; // its types add `schema.hide`
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../errors.js';
import { registerLiveHeapMetric } from './live-heap-metric.js';

/** Who may read `/metrics`: with a token, only `Authorization: Bearer <token>`; `elsewhere` when it has a listener of its own. */
export interface MetricsAccess {
  token?: string;
  elsewhere?: boolean;
}

/** An app's registries: the HTTP metrics first, then what `addMetrics` added (the async path's). */
const registries = new WeakMap<object, Registry[]>();
const accesses = new WeakMap<object, MetricsAccess>();

/** Prometheus metrics: process defaults plus request counts and latency by route and status. */
export function registerMetrics(app: FastifyInstance, service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  registerLiveHeapMetric(registry);
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL, keeps label cardinality bounded.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  registries.set(app, [registry]);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const access = accesses.get(app) ?? {};
    if (access.elsewhere) return reply.callNotFound();
    return metricsResponse(registriesOf(app), access, request, reply);
  });
  return registry;
}

/** Serves `registry` on the app's `/metrics` too (startService adds the infrastructure's async-path metrics). */
export function addMetrics(app: FastifyInstance, registry: Registry): void {
  registriesOf(app).push(registry);
}

/** Sets who may read the app's `/metrics` (startService does, from METRICS_TOKEN and METRICS_PORT). */
export function useMetricsAccess(app: FastifyInstance, access: MetricsAccess): void {
  accesses.set(app, access);
}

/** The metrics of an app, for a listener of their own. */
export function registriesOf(app: FastifyInstance): Registry[] {
  const list = registries.get(app);
  if (!list) throw new Error('the app has no metrics (not built by buildService)');
  return list;
}

export async function metricsResponse(list: Registry[], access: MetricsAccess, request: FastifyRequest, reply: FastifyReply) {
  if (access.token !== undefined && !bearerMatches(request.headers.authorization, access.token)) {
    throw new AppError('UNAUTHORIZED', 'Missing or invalid metrics token');
  }
  void reply.header('content-type', Registry.PROMETHEUS_CONTENT_TYPE);
  // Registries of one app never share a metric name, so their texts concatenate into one exposition.
  return (await Promise.all(list.map((registry) => registry.metrics()))).join('\n');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compared in constant time (as digests, so the length of the token does not show either). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}
