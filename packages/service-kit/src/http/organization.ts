import type { FastifyRequest } from 'fastify';
import { ORGANIZATION_HEADER, ORGANIZATION_TIMEZONE_HEADER, isUuid } from '@app/contracts';
import { AppError } from '../errors.js';

/** The caller's organization, stamped by the gateway (which strips whatever a client sent). */
export function organizationId(request: FastifyRequest): string {
  const id = request.headers[ORGANIZATION_HEADER];
  if (!isUuid(id)) throw new AppError('UNAUTHORIZED', 'Missing or invalid API key');
  return id.toLowerCase();
}

/** The organization's default IANA time zone, stamped by the gateway; UTC when absent. */
export function organizationTimeZone(request: FastifyRequest): string {
  const zone = request.headers[ORGANIZATION_TIMEZONE_HEADER];
  return typeof zone === 'string' && zone.length > 0 ? zone : 'UTC';
}
