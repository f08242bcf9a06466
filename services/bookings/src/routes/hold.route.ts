import {
  createHoldBodySchema,
  dataEnvelope,
  errorResponses,
  holdRecordSchema,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createHold, getHold, releaseHold } from '../use-cases/hold.use-case.js';

export function registerHolds(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/holds',
    {
      schema: {
        operationId: 'createHold',
        summary: 'Hold a slot while a visitor checks out (takes its seats until expires_at)',
        tags: ['holds'],
        body: createHoldBodySchema,
        response: {
          201: dataEnvelope(holdRecordSchema),
          ...errorResponses('SCHEDULE_NOT_FOUND', 'SLOT_UNAVAILABLE', 'SLOT_TAKEN', 'DAY_LIMIT_REACHED', 'UPSTREAM_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createHold(ctx, callerOf(request), request.body) }),
  );

  app.get(
    '/api/v1/holds/:id',
    {
      schema: {
        operationId: 'getHold',
        summary: 'Get a hold (its status as of now)',
        tags: ['holds'],
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(holdRecordSchema), ...errorResponses('NOT_FOUND', 'SCHEDULE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getHold(ctx, callerOf(request), request.params.id)),
  );

  app.delete(
    '/api/v1/holds/:id',
    {
      schema: {
        operationId: 'releaseHold',
        summary: 'Release a hold',
        tags: ['holds'],
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(holdRecordSchema), ...errorResponses('NOT_FOUND', 'SCHEDULE_NOT_FOUND', 'UPSTREAM_UNAVAILABLE') },
      },
    },
    async (request) => ({ data: await releaseHold(ctx, callerOf(request), request.params.id, ifMatchOf(request)) }),
  );
}
