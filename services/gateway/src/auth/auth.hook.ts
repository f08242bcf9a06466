import type { FastifyRequest } from 'fastify';
import { isPublicPath } from '../proxy/route-table.js';
import { authenticate, requiresApiKey } from './authenticate.js';
import type { CallerCache } from './caller-cache.js';

/** onRequest hook: `/api/v1/*` needs a valid key; public proxied paths accept none but check one that is sent. */
export function authHook(cache: CallerCache) {
  return async (request: FastifyRequest): Promise<void> => {
    const path = request.url.split('?')[0] ?? '';
    if (requiresApiKey(path)) return authenticate(request, cache, true);
    if (isPublicPath(path)) return authenticate(request, cache, false);
  };
}
