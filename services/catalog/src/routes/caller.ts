import type { FastifyRequest } from 'fastify';
import { organizationId } from '@app/service-kit';
import type { Caller } from '../use-cases/context.js';

/** The organization the gateway stamped (401 without one) and the request id. */
export function callerOf(request: FastifyRequest): Caller {
  return { organizationId: organizationId(request), requestId: request.id };
}
