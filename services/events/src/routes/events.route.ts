import {
  createEventBodySchema,
  errorResponses,
  dataEnvelope,
  eventDeletionSchema,
  eventRecordSchema,
  getEventQuerySchema,
  listEnvelope,
  listEventsQuerySchema,
  listMeta,
  updateEventBodySchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { getEvent, listEvents } from '../use-cases/event-reads.use-case.js';
import { createEvent, deleteEvent, updateEvent } from '../use-cases/event-writes.use-case.js';
import { callerOf } from './caller.js';
import { presentEvent } from './presenters.js';
import { idParams } from './route-schemas.js';

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
      const { query } = request;
      const { rows, total } = await listEvents(query, callerOf(request), ctx);
      return { data: rows.map(presentEvent), meta: listMeta(total, query.limit, query.offset) };
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
      const event = await createEvent(request.body, callerOf(request), ctx);
      void reply.code(201);
      return { data: presentEvent(event) };
    },
  );

  app.get(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'getEvent',
        summary: 'Get an event (with registration counts on request)',
        tags,
        params: idParams,
        querystring: getEventQuerySchema,
        response: { 200: dataEnvelope(eventRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const event = await getEvent(request.params.id, request.query.include_counts ?? false, callerOf(request), ctx);
      return { data: presentEvent(event) };
    },
  );

  app.patch(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'updateEvent',
        summary: 'Update an event or move its status',
        tags,
        params: idParams,
        body: updateEventBodySchema,
        response: { 200: dataEnvelope(eventRecordSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION', 'CONFLICT') },
      },
    },
    async (request) => {
      const event = await updateEvent(request.params.id, request.body, callerOf(request), ctx);
      return { data: presentEvent(event) };
    },
  );

  app.delete(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'deleteEvent',
        summary: 'Delete an event',
        tags,
        params: idParams,
        response: { 200: dataEnvelope(eventDeletionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      await deleteEvent(request.params.id, callerOf(request), ctx);
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}
