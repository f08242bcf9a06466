import proxy from '@fastify/http-proxy';
import type { FastifyRequest } from 'fastify';
import { CALLER_ASSERTION_HEADER, REQUEST_ID_HEADER, type ErrorBody } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { AssertionMinter } from './caller-assertion.js';
import type { ReplicaPool } from './replica-pool.js';
import { ROUTE_TABLE, type ServiceName } from './route-table.js';

/**
 * A client's headers the services never see: the key (services trust the caller assertion, never the key);
 * `Expect: 100-continue` (curl sends it for bodies over 1 MB), already answered by this server and refused by undici,
 * which would fail every large upload; and the client's trace context, since the gateway's own span (a child of it) is
 * what the service's span hangs from and the tracing instrumentation adds that one: forwarded too, it would be a
 * second copy. A client's caller assertion and organization headers were dropped by the auth hook already.
 */
const NOT_FORWARDED = new Set(['authorization', 'expect', 'traceparent', 'tracestate', 'baggage']);

const UPSTREAM_UNAVAILABLE: ErrorBody = { error: 'A service this request needs did not answer in time', code: 'UPSTREAM_UNAVAILABLE' };

/**
 * What the gateway adds to or removes from a proxied request. The organization headers are already the
 * verified ones here: the auth hook drops whatever a client sent under those names and stamps the key's.
 */
function forwardedHeaders(
  request: Pick<FastifyRequest, 'id' | 'apiKey'>,
  headers: Record<string, string | string[] | undefined>,
  service: ServiceName,
  assertions: AssertionMinter,
) {
  // Copied without the dropped names rather than copied whole and then deleted from: a `delete` makes the object a
  // slow dictionary, and this runs on every proxied request.
  const out: Record<string, string | string[] | undefined> = {};
  for (const name in headers) if (!NOT_FORWARDED.has(name)) out[name] = headers[name];
  // Beside the assertion, not in it (so one assertion serves many requests): the id the gateway checked or made.
  out[REQUEST_ID_HEADER] = request.id;
  // The caller, minted for this service: the one thing it believes about who is asking (a client's copy was dropped).
  out[CALLER_ASSERTION_HEADER] = assertions.mint(request, service);
  return out;
}

interface ProxyDeps {
  replicas: Record<ServiceName, ReplicaPool>;
  timeoutMs: number;
  assertions: AssertionMinter;
}

/** One proxy per prefix of the route table: stamp trusted headers, forward, map failures to 503 (auth ran in onRequest). */
export async function registerProxies(app: ServiceApp, deps: ProxyDeps): Promise<void> {
  await app.register(async (scope) => {
    // Proxied bodies pass through as bytes (http-proxy brings its own parser): the services judge them, UTF-8 included.
    // The kit's JSON parser stays on the gateway's own routes (admin), outside this scope.
    scope.removeContentTypeParser('application/json');
    for (const route of ROUTE_TABLE) await registerProxy(scope, route, deps);
  });
}

async function registerProxy(app: ServiceApp, route: (typeof ROUTE_TABLE)[number], deps: ProxyDeps): Promise<void> {
  const replicas = deps.replicas[route.service];
  // A long poll's answer comes after its wait: the timeout bounds the service's own work beyond it.
  const timeoutMs = deps.timeoutMs + (route.holdsMs ?? 0);
  await app.register(proxy, {
    // No fixed upstream: reply-from would then send every request to that one origin whatever getUpstream
    // picks. Without it, each request goes to the replica getUpstream chose (round-robin over ready ones).
    upstream: '',
    prefix: route.prefix,
    rewritePrefix: route.prefix,
    undici: { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: 2000 } },
    replyOptions: {
      getUpstream: () => replicas.pick(),
      rewriteRequestHeaders: (request, headers) => forwardedHeaders(request, headers, route.service, deps.assertions),
      onError: (reply, { error }) => {
        reply.log.warn({ err: error, service: route.service }, 'upstream unavailable');
        void reply.code(503).header('retry-after', '1').type('application/json').send(UPSTREAM_UNAVAILABLE);
      },
    },
  });
}
