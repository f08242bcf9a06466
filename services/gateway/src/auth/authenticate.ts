import type { FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';
import { bearerToken, looksLikeApiKey } from '../domain/api-key.js';
import type { KeyIdentity } from '../db/identity.repository.js';
import type { KeyCache } from './key-cache.js';

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
 * Verifies the bearer key. `required` routes refuse a request without one; public routes accept
 * none but still refuse a wrong one (a key, if sent, is checked).
 */
export async function authenticate(request: FastifyRequest, cache: KeyCache, required: boolean): Promise<void> {
  const header = request.headers.authorization;
  if (header === undefined && !required) return;
  const key = bearerToken(header);
  if (!key || !looksLikeApiKey(key)) throw unauthorized();
  const identity = await cache.resolve(key);
  if (!identity) throw unauthorized();
  request.apiKey = identity;
}
