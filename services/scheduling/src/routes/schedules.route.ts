import {
  createScheduleBodySchema,
  dataEnvelope,
  deletedScheduleSchema,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listSchedulesQuerySchema,
  publicScheduleRecordSchema,
  scheduleRecordSchema,
  updateScheduleBodySchema,
} from '@app/contracts';
import { z } from 'zod';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { changeSchedule, createSchedule, deactivateSchedule, listOwnSchedules, readSchedule } from '../use-cases/schedules.use-case.js';

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
        description:
          'With a secret or restricted key: the whole schedule. With a publishable key: only a schedule with public_booking: true (any other is a 404), as a PublicSchedule with exactly id, name, timezone, slot_duration and seats_per_slot.',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(z.union([scheduleRecordSchema, publicScheduleRecordSchema])), ...notFound },
      },
    },
    async (request, reply) => answerRecord(request, reply, await readSchedule(ctx, callerOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/schedules/:id',
    {
      schema: {
        operationId: 'updateSchedule',
        summary: 'Update a schedule (arrays replace the stored ones)',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateScheduleBodySchema,
        response: { 200: dataEnvelope(scheduleRecordSchema), ...notFound },
      },
    },
    async (request, reply) => {
      const change = { id: request.params.id, changes: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await changeSchedule(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/schedules/:id',
    {
      schema: {
        operationId: 'deleteSchedule',
        summary: 'Deactivate a schedule (its bookings stay)',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(deletedScheduleSchema), ...notFound },
      },
    },
    async (request) => ({ data: await deactivateSchedule(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );
}
