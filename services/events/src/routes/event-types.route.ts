import {
  createEventTypeBodySchema,
  errorResponses,
  dataEnvelope,
  eventDeletionSchema,
  eventTypeRecordSchema,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listEventTypesQuerySchema,
  updateEventTypeBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createEventType, deleteEventType, listEventTypes, readEventType, updateEventType } from '../use-cases/event-types.use-case.js';

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
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(eventTypeRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await readEventType(ctx, callerOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'updateEventType',
        summary: 'Update an event type',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateEventTypeBodySchema,
        response: { 200: dataEnvelope(eventTypeRecordSchema), ...errorResponses('NOT_FOUND', 'SLUG_TAKEN') },
      },
    },
    async (request, reply) => {
      const change = { id: request.params.id, patch: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateEventType(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'deleteEventType',
        summary: 'Delete an event type',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(eventDeletionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteEventType(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );
}
