import {
  createEventTypeBodySchema,
  errorResponses,
  dataEnvelope,
  eventDeletionSchema,
  eventTypeRecordSchema,
  listEnvelope,
  listEventTypesQuerySchema,
  updateEventTypeBodySchema,
} from '@app/contracts';
import { callerOf, idParamsSchema, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createEventType, deleteEventType, getEventType, listEventTypes, updateEventType } from '../use-cases/event-types.use-case.js';

const tags = ['event-types'];

/** /api/v1/event-types: kinds of meeting that can be booked. */
export function registerEventTypeRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/event-types',
    {
      schema: {
        operationId: 'listEventTypes',
        summary: 'List event types (active ones by default)',
        tags,
        querystring: listEventTypesQuerySchema,
        response: { 200: listEnvelope(eventTypeRecordSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listEventTypes(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.post(
    '/api/v1/event-types',
    {
      schema: {
        operationId: 'createEventType',
        summary: 'Create an event type (the slug is made from the title unless given)',
        tags,
        body: createEventTypeBodySchema,
        response: { 201: dataEnvelope(eventTypeRecordSchema), ...errorResponses('SLUG_TAKEN', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const eventType = await createEventType(ctx, callerOf(request), request.body);
      void reply.code(201);
      return { data: eventType };
    },
  );

  app.get(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'getEventType',
        summary: 'Get an event type',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(eventTypeRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await getEventType(ctx, callerOf(request), request.params.id) }),
  );

  app.patch(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'updateEventType',
        summary: 'Update an event type',
        tags,
        params: idParamsSchema,
        body: updateEventTypeBodySchema,
        response: { 200: dataEnvelope(eventTypeRecordSchema), ...errorResponses('NOT_FOUND', 'SLUG_TAKEN') },
      },
    },
    async (request) => ({ data: await updateEventType(ctx, callerOf(request), { id: request.params.id, patch: request.body }) }),
  );

  app.delete(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'deleteEventType',
        summary: 'Delete an event type',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(eventDeletionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteEventType(ctx, callerOf(request), request.params.id) }),
  );
}
