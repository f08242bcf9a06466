import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { organizationId } from '@app/service-kit';
import type { Caller } from '../use-cases/context.js';

/** Any string: a malformed id is a 404 like an unknown one, never a 400 or 500. */
export const connectionParamsSchema = z.object({ id: z.string() });
export const providerParamsSchema = z.object({ provider: z.string() });

export function callerOf(request: FastifyRequest): Caller {
  return { organizationId: organizationId(request), requestId: request.id };
}

export const TAGS = ['calendar-connections'];
