import {
  createRegistrationBodySchema,
  errorResponses,
  dataEnvelope,
  listEnvelope,
  listMeta,
  listRegistrationsQuerySchema,
  registrationRecordSchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { cancelRegistration, listRegistrations, register } from '../use-cases/registrations.use-case.js';
import { callerOf } from './caller.js';
import { presentRegistration } from './presenters.js';
import { idParams, registrationParams } from './route-schemas.js';

const tags = ['events'];

/** /api/v1/events/{id}/registrations: places taken at an event. */
export function registerRegistrationRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/events/:id/registrations',
    {
      schema: {
        operationId: 'createRegistration',
        summary: 'Register for an event (refused when full or not open)',
        tags,
        params: idParams,
        body: createRegistrationBodySchema,
        response: { 201: dataEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND', 'EVENT_FULL', 'EVENT_NOT_OPEN') },
      },
    },
    async (request, reply) => {
      const registration = await register(request.params.id, request.body, callerOf(request), ctx);
      void reply.code(201);
      return { data: presentRegistration(registration) };
    },
  );

  app.get(
    '/api/v1/events/:id/registrations',
    {
      schema: {
        operationId: 'listRegistrations',
        summary: "List an event's registrations, oldest first",
        tags,
        params: idParams,
        querystring: listRegistrationsQuerySchema,
        response: { 200: listEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { query } = request;
      const { rows, total } = await listRegistrations(request.params.id, query, callerOf(request), ctx);
      return { data: rows.map(presentRegistration), meta: listMeta(total, query.limit, query.offset) };
    },
  );

  app.delete(
    '/api/v1/events/:id/registrations/:registrationId',
    {
      schema: {
        operationId: 'cancelRegistration',
        summary: 'Cancel a registration (its places are freed)',
        tags,
        params: registrationParams,
        response: { 200: dataEnvelope(registrationRecordSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
    },
    async (request) => {
      const { id, registrationId } = request.params;
      const registration = await cancelRegistration(id, registrationId, callerOf(request), ctx);
      return { data: presentRegistration(registration) };
    },
  );
}
