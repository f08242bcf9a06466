import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Where every answer is an authenticated one (API.md, Conventions): the API and the gateway's admin API. */
const AUTHENTICATED_PREFIXES = ['/api/v1', '/admin/v1'];

/**
 * `Cache-Control: no-store` on every answer under an authenticated prefix: keys and webhook secrets are shown once,
 * and no browser, proxy or CDN may keep them, nor any other organization's data. An onSend hook, so it covers every
 * way an answer leaves: a route's, an error (401, 403, 404, 429 included), an idempotent replay (sent before the
 * route runs) and, in the gateway, a proxied answer, whatever the service behind said. Every service has it too
 * (buildService), so a service reached through another proxy than the gateway still says no-store. Public paths
 * (`/api/bookings/slots`, `/media/…`) are not under these prefixes and keep their own caching.
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (isAuthenticatedPath(request)) void reply.header('cache-control', 'no-store');
    return payload;
  });
}

/** Judged on the route matched and on the percent-decoded path, so `/%61pi/v1/…` (the route it reaches) counts too. */
function isAuthenticatedPath(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return (route !== undefined && underPrefix(route)) || underPrefix(decodedPath(request.url));
}

function underPrefix(path: string): boolean {
  return AUTHENTICATED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
