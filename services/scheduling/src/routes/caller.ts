import type { FastifyRequest } from 'fastify';
import { ORGANIZATION_HEADER, isIanaTimeZone } from '@app/contracts';
import { organizationId, organizationTimeZone } from '@app/service-kit';
import type { Caller } from '../use-cases/schedules.js';

/** The organization the gateway stamped, with its default zone (UTC when unknown). */
export function callerOf(request: FastifyRequest): Caller {
  const zone = organizationTimeZone(request);
  return { organizationId: organizationId(request), timezone: isIanaTimeZone(zone) ? zone : 'UTC', requestId: request.id };
}

/** On public routes: the organization when the caller sent a key (the gateway then stamps it), else null. */
export function optionalOrganizationId(request: FastifyRequest): string | null {
  return request.headers[ORGANIZATION_HEADER] === undefined ? null : organizationId(request);
}
