import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';
import { bearerToken } from '../identity/api-key.js';
import type { AuthFailures } from './auth-failures.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Refuses a request whose bearer token is not ADMIN_TOKEN (compared in constant time). A failure counts against
 * the IP's failed-authentication limit, and an IP over it is refused (429) before the token is compared.
 */
export async function requireAdmin(
  request: FastifyRequest,
  reply: FastifyReply,
  adminToken: string,
  failures: AuthFailures,
): Promise<void> {
  await failures.refuseIfBlocked(request, reply);
  const token = bearerToken(request.headers.authorization);
  if (!token || !timingSafeEqual(digest(token), digest(adminToken))) {
    await failures.record(request);
    throw new AppError('UNAUTHORIZED', 'Missing or invalid admin token');
  }
}
