import type { FastifyRequest } from 'fastify';
import { isIanaTimeZone, type ApiKeyScope, type ApiKeyType } from '@app/contracts';
import { assertedCallerOfRequest } from './caller-assertion.js';
import { organizationId, organizationTimeZone } from './organization.js';

/**
 * Who is asking, as every use case sees it: the organization of the gateway's verified caller assertion, its default IANA time
 * zone (UTC when unknown or unusable), the kind of its key (a publishable key sees only public records and fields)
 * and the request id (the correlation id of the events it causes).
 */
export interface Caller {
  organizationId: string;
  timezone: string;
  keyType: ApiKeyType;
  scopes?: readonly ApiKeyScope[];
  requestId: string;
}

/** The caller of a request (401 UNAUTHORIZED when its verified assertion names no organization). */
export function callerOf(request: FastifyRequest): Caller {
  const asserted = assertedCallerOfRequest(request);
  return {
    organizationId: organizationId(request),
    timezone: usableZone(organizationTimeZone(request)),
    // No kind in the assertion: a gateway older than key kinds, which issued secret keys only.
    keyType: asserted?.keyType ?? 'secret',
    ...(asserted?.scopes === undefined ? {} : { scopes: asserted.scopes }),
    requestId: request.id,
  };
}

/** True for a browser's key: the use case shows only public records and fields, and asks for client secrets. */
export function isPublishable(caller: Pick<Caller, 'keyType'>): boolean {
  return caller.keyType === 'publishable';
}

/** On public routes: the caller when it sent a key (the gateway's assertion then names its organization), else null. */
export function optionalCallerOf(request: FastifyRequest): Caller | null {
  return assertedCallerOfRequest(request)?.organizationId === undefined ? null : callerOf(request);
}

/**
 * The caller of a NATS request: the organization the asking service names in it, and the request id it
 * passed along. No organization zone travels with service-to-service requests: UTC.
 */
export function messageCallerOf(organizationId: string, requestId: string | undefined): Caller {
  return { organizationId, timezone: 'UTC', keyType: 'secret', requestId: requestId ?? '' };
}

/** The outbox context of a change made for `caller`: its organization, and its request as the correlation id. */
export function eventContextOf(caller: Caller): { organizationId: string; correlationId: string } {
  return { organizationId: caller.organizationId, correlationId: caller.requestId };
}

/** Zone names already checked: checking builds an Intl formatter, too slow to repeat on every request. */
const checkedZones = new Map<string, boolean>();
const MAX_CHECKED_ZONES = 1000;

function usableZone(zone: string): string {
  let known = checkedZones.get(zone);
  if (known === undefined) {
    known = isIanaTimeZone(zone);
    if (checkedZones.size >= MAX_CHECKED_ZONES) checkedZones.clear();
    checkedZones.set(zone, known);
  }
  return known ? zone : 'UTC';
}
