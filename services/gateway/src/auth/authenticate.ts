import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';
import { bearerToken, looksLikeApiKey } from '../identity/api-key.js';
import type { KeyIdentity } from '../identity/identity.repository.js';
import type { AuthFailures } from './auth-failures.js';
import type { KeyCache } from './key-cache.js';
import { RecentKeys } from './recent-keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization and key behind the request, once its API key is verified. */
    apiKey?: KeyIdentity;
  }
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'Missing or invalid API key');

/** Paths whose requests must carry an API key. */
export function requiresApiKey(url: string): boolean {
  return url.startsWith('/api/v1/') || url === '/api/v1';
}

/**
 * The path authentication decides on: the route Fastify matched (its router decodes the path, so `/%61pi/v1/…` is
 * judged as the `/api/v1/…` it reaches), else, for a path no route matched, the percent-decoded path.
 */
export function routePathOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? decodedPath(request.url);
}

export function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // not valid percent-encoding: the router answers 404 for it
  }
}

/** What authentication reads: the key lookups, the failures per IP, and the keys that authenticated recently. */
export interface AuthDeps {
  cache: KeyCache;
  failures: AuthFailures;
  recent: RecentKeys;
}

/**
 * Verifies the bearer key. `required` routes refuse a request without one; public routes accept
 * none but still refuse a wrong one (a key, if sent, is checked). A request that carries a key from an IP over
 * its failed-authentication limit is refused (429) before the key is looked up, unless that key authenticated in
 * the last ten minutes (recent-keys.ts): the limit holds back guessing, not the customers behind one proxy.
 */
export async function authenticate(request: FastifyRequest, reply: FastifyReply, deps: AuthDeps, required: boolean): Promise<void> {
  const header = request.headers.authorization;
  if (header === undefined) {
    if (required) throw unauthorized();
    return;
  }
  const token = bearerToken(header);
  const key = token !== null && looksLikeApiKey(token) ? token : null;
  // A key a lookup of the last seconds found: it authenticated just now, so no failure check, no hash, no wait.
  const hit = key === null ? undefined : deps.cache.cached(key);
  if (hit !== undefined) {
    deps.recent.remember(hit.hash);
    request.apiKey = hit.identity;
    return;
  }
  const hash = key === null ? null : RecentKeys.hashOf(key);
  if (hash === null || !deps.recent.has(hash)) await deps.failures.refuseIfBlocked(request, reply);
  const identity = key === null ? null : await deps.cache.resolve(key);
  if (hash === null || !identity) {
    if (hash !== null) deps.recent.forget(hash);
    await deps.failures.record(request);
    throw unauthorized();
  }
  deps.recent.remember(hash);
  request.apiKey = identity;
}
