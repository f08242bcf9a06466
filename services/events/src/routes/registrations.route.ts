import {
  createRegistrationBodySchema,
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
import { errorResponses, idParams, registrationParams } from './route-schemas.js';

const tags = ['events'];

/** /api/v1/events/{id}/registrations: places taken at an event. */
export function registerRegistrationRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/events/:id/registrations',
    {
      schema: {
        tags,
        params: idParams,
        body: createRegistrationBodySchema,
        response: { 201: dataEnvelope(registrationRecordSchema), ...errorResponses },
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
        tags,
        params: idParams,
        querystring: listRegistrationsQuerySchema,
        response: { 200: listEnvelope(registrationRecordSchema), ...errorResponses },
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
    { schema: { tags, params: registrationParams, response: { 200: dataEnvelope(registrationRecordSchema), ...errorResponses } } },
    async (request) => {
      const { id, registrationId } = request.params;
      const registration = await cancelRegistration(id, registrationId, callerOf(request), ctx);
      return { data: presentRegistration(registration) };
    },
  );
}
