import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { assertedCallerOfRequest } from './caller-assertion.js';

/**
 * The caller's organization, from the gateway's verified caller assertion (never from a header: a bare
 * `x-organization-id` is ignored). 401 UNAUTHORIZED when the assertion names none (an anonymous public call).
 */
export function organizationId(request: FastifyRequest): string {
  const id = assertedCallerOfRequest(request)?.organizationId;
  if (id === undefined) throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
  return id;
}

/** The organization's default IANA time zone, from the verified assertion; UTC when absent. */
export function organizationTimeZone(request: FastifyRequest): string {
  const zone = assertedCallerOfRequest(request)?.timezone;
  return zone !== undefined && zone.length > 0 ? zone : 'UTC';
}
