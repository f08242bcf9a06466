import {
  createEventTypeBodySchema,
  errorResponses,
  dataEnvelope,
  eventDeletionSchema,
  eventTypeRecordSchema,
  listEnvelope,
  listEventTypesQuerySchema,
  listMeta,
  updateEventTypeBodySchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createEventType, deleteEventType, getEventType, listEventTypes, updateEventType } from '../use-cases/event-types.use-case.js';
import { callerOf } from './caller.js';
import { presentEventType } from './presenters.js';
import { idParams } from './route-schemas.js';

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
      const { query } = request;
      const { rows, total } = await listEventTypes(query, callerOf(request), ctx);
      return { data: rows.map(presentEventType), meta: listMeta(total, query.limit, query.offset) };
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
      const eventType = await createEventType(request.body, callerOf(request), ctx);
      void reply.code(201);
      return { data: presentEventType(eventType) };
    },
  );

  app.get(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'getEventType',
        summary: 'Get an event type',
        tags,
        params: idParams,
        response: { 200: dataEnvelope(eventTypeRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: presentEventType(await getEventType(request.params.id, callerOf(request), ctx)) }),
  );

  app.patch(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'updateEventType',
        summary: 'Update an event type',
        tags,
        params: idParams,
        body: updateEventTypeBodySchema,
        response: { 200: dataEnvelope(eventTypeRecordSchema), ...errorResponses('NOT_FOUND', 'SLUG_TAKEN') },
      },
    },
    async (request) => ({ data: presentEventType(await updateEventType(request.params.id, request.body, callerOf(request), ctx)) }),
  );

  app.delete(
    '/api/v1/event-types/:id',
    {
      schema: {
        operationId: 'deleteEventType',
        summary: 'Delete an event type',
        tags,
        params: idParams,
        response: { 200: dataEnvelope(eventDeletionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      await deleteEventType(request.params.id, callerOf(request), ctx);
      return { data: { id: request.params.id, deleted: true as const } };
    },
  );
}
