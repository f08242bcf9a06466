import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isUuid } from '@app/contracts';
import { notFound, organizationId } from '@app/service-kit';
import type { Caller } from '../use-cases/context.js';

/** Any string is accepted here so that a malformed id is a 404 like an unknown one, never a 400 or 500. */
export const bookingParamsSchema = z.object({ id: z.string() });

export function bookingIdOf(params: { id: string }): string {
  if (!isUuid(params.id)) throw notFound('Booking');
  return params.id.toLowerCase();
}

export function callerOf(request: FastifyRequest): Caller {
  return { organizationId: organizationId(request), requestId: request.id };
}
