import {
  calendarConnectionSchema,
  createCalendarConnectionBodySchema,
  dataEnvelope,
  deletedCalendarConnectionSchema,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listCalendarConnectionsQuerySchema,
  listEnvelope,
  updateCalendarConnectionBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  requestSync,
  updateConnection,
  type NewConnectionInput,
} from '../use-cases/connections.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

const PATH = '/api/v1/calendar-connections';
const tags = ['calendar-connections'];

/** /api/v1/calendar-connections: connected calendars, their status, and manual syncs. */
export function registerConnectionRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    PATH,
    {
      schema: {
        operationId: 'createCalendarConnection',
        summary: 'Connect a Google or Outlook calendar (OAuth tokens) or an ICS feed (its URL) to a schedule; neither is ever returned',
        tags,
        body: createCalendarConnectionBodySchema,
        response: { 201: dataEnvelope(calendarConnectionSchema), ...errorResponses('SCHEDULE_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const input: NewConnectionInput =
        body.provider === 'ics'
          ? { provider: body.provider, scheduleId: body.schedule_id, url: body.url }
          : {
              provider: body.provider,
              scheduleId: body.schedule_id,
              calendarIds: body.calendar_ids,
              writeCalendarId: body.write_calendar_id,
              tokens: {
                accessToken: body.credentials.access_token,
                refreshToken: body.credentials.refresh_token,
                expiresAt: body.credentials.expires_at,
              },
            };
      return reply.code(201).send({ data: await createConnection(ctx, callerOf(request), input) });
    },
  );

  app.get(
    PATH,
    {
      schema: {
        operationId: 'listCalendarConnections',
        summary: 'List calendar connections',
        tags,
        querystring: listCalendarConnectionsQuerySchema,
        response: { 200: listEnvelope(calendarConnectionSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listConnections(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.get(
    `${PATH}/:id`,
    {
      schema: {
        operationId: 'getCalendarConnection',
        summary: 'Get a calendar connection (status, last_synced_at, last_error)',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(calendarConnectionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getConnection(ctx, callerOf(request), request.params.id)),
  );

  app.patch(
    `${PATH}/:id`,
    {
      schema: {
        operationId: 'updateCalendarConnection',
        summary: 'Set or clear the calendar bookings are written to (write_calendar_id), for the bookings that change from then on',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateCalendarConnectionBodySchema,
        response: { 200: dataEnvelope(calendarConnectionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const input = { id: request.params.id, ifMatch: ifMatchOf(request), changes: request.body };
      return answerRecord(request, reply, await updateConnection(ctx, callerOf(request), input));
    },
  );

  app.delete(
    `${PATH}/:id`,
    {
      schema: {
        operationId: 'deleteCalendarConnection',
        summary: 'Disconnect a calendar; its busy times stop blocking slots at once',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(deletedCalendarConnectionSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteConnection(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );

  app.post(
    `${PATH}/:id/sync`,
    {
      schema: {
        operationId: 'syncCalendarConnection',
        summary: 'Sync the calendar now (runs in the background)',
        tags,
        params: idParamsSchema,
        response: { 202: dataEnvelope(calendarConnectionSchema), ...errorResponses('NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => reply.code(202).send({ data: await requestSync(ctx, callerOf(request), request.params.id) }),
  );
}
