import type { FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';
import { bearerToken, looksLikeApiKey } from '../domain/api-key.js';
import type { Caller } from '../db/identity.repository.js';
import type { CallerCache } from './caller-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization and key behind the request, once its API key is verified. */
    caller?: Caller;
  }
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'Missing or invalid API key');

/** Paths whose requests must carry an API key. */
export function requiresApiKey(url: string): boolean {
  return url.startsWith('/api/v1/') || url === '/api/v1';
}

/**
 * Verifies the bearer key. `required` routes refuse a request without one; public routes accept
 * none but still refuse a wrong one (a key, if sent, is checked).
 */
export async function authenticate(request: FastifyRequest, cache: CallerCache, required: boolean): Promise<void> {
  const header = request.headers.authorization;
  if (header === undefined && !required) return;
  const key = bearerToken(header);
  if (!key || !looksLikeApiKey(key)) throw unauthorized();
  const caller = await cache.resolve(key);
  if (!caller) throw unauthorized();
  request.caller = caller;
}
