import {
  createScheduleBodySchema,
  dataEnvelope,
  deletedScheduleSchema,
  errorResponses,
  listEnvelope,
  listSchedulesQuerySchema,
  scheduleRecordSchema,
  updateScheduleBodySchema,
} from '@app/contracts';
import { callerOf, idParamsSchema, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { changeSchedule, createSchedule, deactivateSchedule, getSchedule, listOwnSchedules } from '../use-cases/schedules.use-case.js';

const tags = ['schedules'];
const notFound = errorResponses('NOT_FOUND');

/** `/api/v1/schedules`: create, list, get, update and deactivate the organization's schedules. */
export function registerScheduleRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/schedules',
    {
      schema: {
        operationId: 'createSchedule',
        summary: 'Create a schedule (weekly hours, date overrides, slot length)',
        tags,
        body: createScheduleBodySchema,
        response: { 201: dataEnvelope(scheduleRecordSchema) },
      },
    },
    async (request, reply) => {
      const data = await createSchedule(ctx, callerOf(request), request.body);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/schedules',
    {
      schema: {
        operationId: 'listSchedules',
        summary: 'List schedules, oldest first',
        tags,
        querystring: listSchedulesQuerySchema,
        response: { 200: listEnvelope(scheduleRecordSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listOwnSchedules(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/schedules/:id',
    {
      schema: {
        operationId: 'getSchedule',
        summary: 'Get a schedule',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(scheduleRecordSchema), ...notFound },
      },
    },
    async (request) => ({ data: await getSchedule(ctx, callerOf(request), request.params.id) }),
  );

  app.patch(
    '/api/v1/schedules/:id',
    {
      schema: {
        operationId: 'updateSchedule',
        summary: 'Update a schedule (arrays replace the stored ones)',
        tags,
        params: idParamsSchema,
        body: updateScheduleBodySchema,
        response: { 200: dataEnvelope(scheduleRecordSchema), ...notFound },
      },
    },
    async (request) => ({ data: await changeSchedule(ctx, callerOf(request), { id: request.params.id, changes: request.body }) }),
  );

  app.delete(
    '/api/v1/schedules/:id',
    {
      schema: {
        operationId: 'deleteSchedule',
        summary: 'Deactivate a schedule (its bookings stay)',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(deletedScheduleSchema), ...notFound },
      },
    },
    async (request) => ({ data: await deactivateSchedule(ctx, callerOf(request), request.params.id) }),
  );
}
