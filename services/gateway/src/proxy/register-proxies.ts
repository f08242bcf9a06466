import proxy from '@fastify/http-proxy';
import type { FastifyRequest } from 'fastify';
import { ORGANIZATION_HEADER, ORGANIZATION_TIMEZONE_HEADER, REQUEST_ID_HEADER, type ErrorBody } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { ReplicaPool } from './replica-pool.js';
import { ROUTE_TABLE, type ServiceName } from './route-table.js';

/** Headers only the gateway may set: whatever a client sends under these names is dropped. */
const TRUSTED_HEADERS = [ORGANIZATION_HEADER, ORGANIZATION_TIMEZONE_HEADER];

const UPSTREAM_UNAVAILABLE: ErrorBody = { error: 'A service this request needs did not answer in time', code: 'UPSTREAM_UNAVAILABLE' };

function forwardedHeaders(request: Pick<FastifyRequest, 'id' | 'caller'>, headers: Record<string, string | string[] | undefined>) {
  const out: Record<string, string | string[] | undefined> = { ...headers };
  for (const name of TRUSTED_HEADERS) delete out[name];
  delete out.authorization; // services trust the stamped organization, never the key
  // `Expect: 100-continue` (curl sends it for bodies over 1 MB) was already answered by this server;
  // undici refuses to forward it, which would fail every large upload.
  delete out.expect;
  out[REQUEST_ID_HEADER] = request.id;
  if (request.caller) {
    out[ORGANIZATION_HEADER] = request.caller.organizationId;
    out[ORGANIZATION_TIMEZONE_HEADER] = request.caller.timezone;
  }
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
          void reply.code(503).type('application/json').send(UPSTREAM_UNAVAILABLE);
        },
      },
    });
  }
}
