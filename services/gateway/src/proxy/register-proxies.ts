import proxy from '@fastify/http-proxy';
import type { FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER, type ErrorBody } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { ReplicaPool } from './replica-pool.js';
import { ROUTE_TABLE, type ServiceName } from './route-table.js';

const UPSTREAM_UNAVAILABLE: ErrorBody = { error: 'A service this request needs did not answer in time', code: 'UPSTREAM_UNAVAILABLE' };

/**
 * What the gateway adds to or removes from a proxied request. The organization headers are already the
 * verified ones here: the auth hook drops whatever a client sent under those names and stamps the key's.
 */
function forwardedHeaders(request: Pick<FastifyRequest, 'id'>, headers: Record<string, string | string[] | undefined>) {
  const out: Record<string, string | string[] | undefined> = { ...headers };
  delete out.authorization; // services trust the stamped organization, never the key
  // `Expect: 100-continue` (curl sends it for bodies over 1 MB) was already answered by this server;
  // undici refuses to forward it, which would fail every large upload.
  delete out.expect;
  out[REQUEST_ID_HEADER] = request.id;
  return out;
}

/** One proxy per prefix of the route table: stamp trusted headers, forward, map failures to 503 (auth ran in onRequest). */
export async function registerProxies(
  app: ServiceApp,
  deps: { replicas: Record<ServiceName, ReplicaPool>; timeoutMs: number },
): Promise<void> {
  for (const route of ROUTE_TABLE) {
    const replicas = deps.replicas[route.service];
    await app.register(proxy, {
      // No fixed upstream: reply-from would then send every request to that one origin whatever getUpstream
      // picks. Without it, each request goes to the replica getUpstream chose (round-robin over ready ones).
      upstream: '',
      prefix: route.prefix,
      rewritePrefix: route.prefix,
      undici: { headersTimeout: deps.timeoutMs, bodyTimeout: deps.timeoutMs, connect: { timeout: 2000 } },
      replyOptions: {
        getUpstream: () => replicas.pick(),
        rewriteRequestHeaders: (request, headers) => forwardedHeaders(request, headers),
        onError: (reply, { error }) => {
          reply.log.warn({ err: error, service: route.service }, 'upstream unavailable');
          void reply.code(503).header('retry-after', '1').type('application/json').send(UPSTREAM_UNAVAILABLE);
        },
      },
    });
  }
}
