import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '@app/service-kit';
import { bearerToken } from '../domain/api-key.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Refuses a request whose bearer token is not ADMIN_TOKEN (compared in constant time). */
export function requireAdmin(request: FastifyRequest, adminToken: string): void {
  const token = bearerToken(request.headers.authorization);
  if (!token || !timingSafeEqual(digest(token), digest(adminToken))) {
    throw new AppError('UNAUTHORIZED', 'Missing or invalid admin token');
  }
}
