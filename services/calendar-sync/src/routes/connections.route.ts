import {
  calendarConnectionSchema,
  createCalendarConnectionBodySchema,
  dataEnvelope,
  deletedCalendarConnectionSchema,
  errorResponses,
  listCalendarConnectionsQuerySchema,
  listEnvelope,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { createConnection, deleteConnection, getConnection, listConnections, requestSync } from '../use-cases/connections.js';
import type { UseCaseContext } from '../use-cases/context.js';
import { callerOf, connectionParamsSchema, TAGS } from './route-support.js';

const PATH = '/api/v1/calendar-connections';

export function registerConnectionRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    PATH,
    {
      schema: {
        operationId: 'createCalendarConnection',
        summary: 'Connect a Google or Outlook calendar to a schedule with OAuth tokens (never returned)',
        tags: TAGS,
        body: createCalendarConnectionBodySchema,
        response: { 201: dataEnvelope(calendarConnectionSchema), ...errorResponses('SCHEDULE_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { provider, schedule_id, calendar_ids, credentials } = request.body;
      const tokens = { accessToken: credentials.access_token, refreshToken: credentials.refresh_token, expiresAt: credentials.expires_at };
      const connection = await createConnection(
        { provider, scheduleId: schedule_id, calendarIds: calendar_ids, tokens },
        callerOf(request),
        ctx,
      );
      return reply.code(201).send({ data: connection });
    },
  );

  app.get(
    PATH,
    {
      schema: {
        operationId: 'listCalendarConnections',
        summary: 'List calendar connections',
        tags: TAGS,
        querystring: listCalendarConnectionsQuerySchema,
        response: { 200: listEnvelope(calendarConnectionSchema) },
      },
    },
    async (request) => {
      const { limit, offset, schedule_id, provider, status } = request.query;
      return listConnections({ scheduleId: schedule_id, provider, status }, { limit, offset }, callerOf(request), ctx);
    },
  );

  app.get(
    `${PATH}/:id`,
    {
      schema: {
        operationId: 'getCalendarConnection',
        summary: 'Get a calendar connection (status, last_synced_at, last_error)',
        tags: TAGS,
        params: connectionParamsSchema,
        response: { 200: dataEnvelope(calendarConnectionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await getConnection(request.params.id, callerOf(request), ctx) }),
  );

  app.delete(
    `${PATH}/:id`,
    {
      schema: {
        operationId: 'deleteCalendarConnection',
        summary: 'Disconnect a calendar; its busy times stop blocking slots at once',
        tags: TAGS,
        params: connectionParamsSchema,
        response: { 200: dataEnvelope(deletedCalendarConnectionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteConnection(request.params.id, callerOf(request), ctx) }),
  );

  app.post(
    `${PATH}/:id/sync`,
    {
      schema: {
        operationId: 'syncCalendarConnection',
        summary: 'Sync the calendar now (runs in the background)',
        tags: TAGS,
        params: connectionParamsSchema,
        response: { 202: dataEnvelope(calendarConnectionSchema), ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => reply.code(202).send({ data: await requestSync(request.params.id, callerOf(request), ctx) }),
  );
}
