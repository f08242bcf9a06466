import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { assertedCallerOfRequest } from '../caller-assertion.js';
import { organizationId } from '../organization.js';
import { canonicalJson } from './request-hash.js';

/**
 * Whose keys these are: the organization of the verified caller assertion (services; on the gateway's own API-key
 * routes, the organization of the key it verified itself), never an `x-organization-id` header.
 * A request without one can only have reached a creating route by passing that route's own bearer check (the
 * gateway's admin API checks ADMIN_TOKEN in onRequest, before this runs): its keys are the token's, kept as a
 * hash so the token itself is never stored. Neither: 401, as the route would answer.
 */
export function callerScope(request: FastifyRequest): string {
  if (assertedCallerOfRequest(request)?.organizationId !== undefined) return organizationId(request);
  const token = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (token) return `token:${createHash('sha256').update(token).digest('hex')}`;
  return organizationId(request);
}

/**
 * The route and its path parameters, e.g. `POST /api/v1/events/:id/registrations {"id":"…"}`: a key answers one
 * request, so the same key and body sent to another event's registrations is another request, not a replay.
 */
export function requestTarget(request: FastifyRequest): string {
  const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
  const params = request.params;
  const hasParams = params !== null && typeof params === 'object' && Object.keys(params).length > 0;
  return hasParams ? `${route} ${canonicalJson(params)}` : route;
}
