import type { FastifyRequest } from 'fastify';
import { isIanaTimeZone } from '@app/contracts';
import { organizationId, organizationTimeZone } from '@app/service-kit';
import type { Caller } from '../use-cases/context.js';

/** Zone names already checked: checking builds an Intl formatter, too slow to repeat on every request. */
const checkedZones = new Map<string, boolean>();
const MAX_CHECKED_ZONES = 1000;

/** The caller as the gateway stamped it; an unusable organization time zone falls back to UTC. */
export function callerOf(request: FastifyRequest): Caller {
  const zone = organizationTimeZone(request);
  return { organizationId: organizationId(request), timezone: isKnownZone(zone) ? zone : 'UTC', requestId: request.id };
}

function isKnownZone(zone: string): boolean {
  let known = checkedZones.get(zone);
  if (known === undefined) {
    known = isIanaTimeZone(zone);
    if (checkedZones.size >= MAX_CHECKED_ZONES) checkedZones.clear();
    checkedZones.set(zone, known);
  }
  return known;
}
