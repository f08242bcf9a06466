import type { FastifyReply, FastifyRequest } from 'fastify';
import { CALLER_ASSERTION_HEADER, ORGANIZATION_HEADER, ORGANIZATION_TIMEZONE_HEADER } from '@app/contracts';
import { trustCaller } from '@app/service-kit';
import { isPublicPath } from '../proxy/route-table.js';
import { authenticate, requiresApiKey, routePathOf, type AuthDeps } from './authenticate.js';

/**
 * onRequest hook: `/api/v1/*` needs a valid key; public proxied paths accept none but check one that is sent.
 * Decided on the route the request matched, so a percent-encoded spelling of a path is judged as the path it
 * reaches. What a client sends as the organization headers or a caller assertion is dropped first, so the gateway's own routes (which
 * read them like any service) see only the organization of a verified key.
 */
export function authHook(deps: AuthDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    delete request.headers[ORGANIZATION_HEADER];
    delete request.headers[ORGANIZATION_TIMEZONE_HEADER];
    delete request.headers[CALLER_ASSERTION_HEADER];
    const path = routePathOf(request);
    if (requiresApiKey(path)) await authenticate(request, reply, deps, true);
    else if (isPublicPath(path)) await authenticate(request, reply, deps, false);
    if (request.apiKey) {
      request.headers[ORGANIZATION_HEADER] = request.apiKey.organizationId;
      request.headers[ORGANIZATION_TIMEZONE_HEADER] = request.apiKey.timezone;
      // The gateway's own routes (ping, the kit's idempotency scope) read the caller as services do; upstream,
      // only the minted caller assertion counts (proxy/caller-assertion.ts), these headers are informational.
      const { organizationId, timezone, apiKeyId, type, scopes } = request.apiKey;
      trustCaller(request, { organizationId, timezone, apiKeyId, keyType: type, ...(scopes ? { scopes } : {}) });
    }
  };
}
