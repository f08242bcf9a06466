import { z } from 'zod';
import {
  clientSecretQuerySchema,
  createdRegistrationSchema,
  createRegistrationBodySchema,
  errorResponses,
  dataEnvelope,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listRegistrationsQuerySchema,
  registrationRecordSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { cancelRegistration, getRegistration, listRegistrations, register } from '../use-cases/registrations.use-case.js';

/** Any strings: a malformed id is a 404 like an unknown one, never a 400. */
const registrationParamsSchema = z.object({ id: z.string(), registrationId: z.string() });

const tags = ['events'];

/** /api/v1/events/{id}/registrations: places taken at an event. */
export function registerRegistrationRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/events/:id/registrations',
    {
      schema: {
        operationId: 'createRegistration',
        summary: 'Register for an event (waitlisted, or refused, when full; refused when not open)',
        tags,
        params: idParamsSchema,
        body: createRegistrationBodySchema,
        response: {
          201: dataEnvelope(createdRegistrationSchema),
          ...errorResponses('NOT_FOUND', 'EVENT_FULL', 'EVENT_NOT_OPEN', 'SOLD_OUT', 'SALES_CLOSED'),
        },
      },
    },
    async (request, reply) => {
      const registration = await register(ctx, callerOf(request), { eventId: request.params.id, registration: request.body });
      void reply.code(201);
      return { data: registration };
    },
  );

  app.get(
    '/api/v1/events/:id/registrations',
    {
      schema: {
        operationId: 'listRegistrations',
        summary: "List an event's registrations, oldest first",
        tags,
        params: idParamsSchema,
        querystring: listRegistrationsQuerySchema,
        response: { 200: listEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { items, meta } = await listRegistrations(ctx, callerOf(request), { eventId: request.params.id, ...request.query });
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/events/:id/registrations/:registrationId',
    {
      schema: {
        operationId: 'getRegistration',
        summary: 'Get a registration of an event (any status)',
        tags,
        params: registrationParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const target = { eventId: request.params.id, id: request.params.registrationId };
      return answerRecord(request, reply, await getRegistration(ctx, callerOf(request), target));
    },
  );

  app.delete(
    '/api/v1/events/:id/registrations/:registrationId',
    {
      schema: {
        operationId: 'cancelRegistration',
        summary: 'Cancel a registration (its places are freed); a publishable key needs its client_secret',
        tags,
        params: registrationParamsSchema,
        querystring: clientSecretQuerySchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
    },
    async (request) => {
      const { id, registrationId } = request.params;
      const registration = await cancelRegistration(ctx, callerOf(request), {
        eventId: id,
        id: registrationId,
        ifMatch: ifMatchOf(request),
        clientSecret: request.query.client_secret,
      });
      return { data: registration };
    },
  );
}
