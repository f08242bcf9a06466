import { z } from 'zod';
import {
  createTicketTypeBodySchema,
  dataEnvelope,
  errorResponses,
  eventDeletionSchema,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  paginationQuerySchema,
  ticketTypeRecordSchema,
  updateTicketTypeBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import {
  createTicketType,
  deleteTicketType,
  listTicketTypes,
  readTicketType,
  updateTicketType,
} from '../use-cases/ticket-types.use-case.js';

/** Any strings: a malformed id is a 404 like an unknown one, never a 400. */
const ticketTypeParamsSchema = z.object({ id: z.string(), ticketTypeId: z.string() });

const tags = ['events'];

/** /api/v1/events/{id}/ticket-types: kinds of ticket of an event, each with its own quota and sales window. */
export function registerTicketTypeRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/events/:id/ticket-types',
    {
      schema: {
        operationId: 'createTicketType',
        summary: 'Create a ticket type of an event',
        tags,
        params: idParamsSchema,
        body: createTicketTypeBodySchema,
        response: { 201: dataEnvelope(ticketTypeRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const ticketType = await createTicketType(ctx, callerOf(request), { eventId: request.params.id, body: request.body });
      void reply.code(201);
      return { data: ticketType };
    },
  );

  app.get(
    '/api/v1/events/:id/ticket-types',
    {
      schema: {
        operationId: 'listTicketTypes',
        summary: "List an event's ticket types, oldest first, each with its places sold",
        tags,
        params: idParamsSchema,
        querystring: paginationQuerySchema,
        response: { 200: listEnvelope(ticketTypeRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { items, meta } = await listTicketTypes(ctx, callerOf(request), { eventId: request.params.id, query: request.query });
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/events/:id/ticket-types/:ticketTypeId',
    {
      schema: {
        operationId: 'getTicketType',
        summary: 'Get a ticket type',
        tags,
        params: ticketTypeParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(ticketTypeRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const target = { eventId: request.params.id, id: request.params.ticketTypeId };
      return answerRecord(request, reply, await readTicketType(ctx, callerOf(request), target));
    },
  );

  app.patch(
    '/api/v1/events/:id/ticket-types/:ticketTypeId',
    {
      schema: {
        operationId: 'updateTicketType',
        summary: 'Update a ticket type (a larger quantity promotes the waitlist)',
        tags,
        params: ticketTypeParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateTicketTypeBodySchema,
        response: { 200: dataEnvelope(ticketTypeRecordSchema), ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const change = { eventId: request.params.id, id: request.params.ticketTypeId, patch: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateTicketType(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/events/:id/ticket-types/:ticketTypeId',
    {
      schema: {
        operationId: 'deleteTicketType',
        summary: 'Delete a ticket type (refused while confirmed or waitlisted registrations have it)',
        tags,
        params: ticketTypeParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(eventDeletionSchema), ...errorResponses('NOT_FOUND', 'TICKET_TYPE_IN_USE') },
      },
    },
    async (request) => {
      const target = { eventId: request.params.id, id: request.params.ticketTypeId, ifMatch: ifMatchOf(request) };
      return { data: await deleteTicketType(ctx, callerOf(request), target) };
    },
  );
}
