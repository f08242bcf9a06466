import {
  createEventBodySchema,
  errorResponses,
  dataEnvelope,
  eventDeletionSchema,
  eventRecordSchema,
  getEventQuerySchema,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listEventsQuerySchema,
  updateEventBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { getEvent, listEvents } from '../use-cases/event-reads.use-case.js';
import { createEvent, deleteEvent, updateEvent } from '../use-cases/event-writes.use-case.js';

const tags = ['events'];

/** /api/v1/events: dated happenings with a cost and a capacity. */
export function registerEventRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: 'List events by start time',
        tags,
        querystring: listEventsQuerySchema,
        response: { 200: listEnvelope(eventRecordSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listEvents(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.post(
    '/api/v1/events',
    {
      schema: {
        operationId: 'createEvent',
        summary: 'Create an event with a capacity',
        tags,
        body: createEventBodySchema,
        response: { 201: dataEnvelope(eventRecordSchema) },
      },
    },
    async (request, reply) => {
      const event = await createEvent(ctx, callerOf(request), request.body);
      void reply.code(201);
      return { data: event };
    },
  );

  app.get(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'getEvent',
        summary: 'Get an event (with registration counts on request)',
        tags,
        params: idParamsSchema,
        querystring: getEventQuerySchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(eventRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const event = await getEvent(ctx, callerOf(request), { id: request.params.id, includeCounts: request.query.include_counts ?? false });
      return answerRecord(request, reply, event);
    },
  );

  app.patch(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'updateEvent',
        summary: 'Update an event or move its status',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateEventBodySchema,
        response: { 200: dataEnvelope(eventRecordSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const event = await updateEvent(ctx, callerOf(request), { id: request.params.id, patch: request.body, ifMatch: ifMatchOf(request) });
      return answerRecord(request, reply, event);
    },
  );

  app.delete(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'deleteEvent',
        summary: 'Delete an event',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(eventDeletionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteEvent(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );
}
