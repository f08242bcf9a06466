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
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, isPublishable, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { changeSchedule, createSchedule, deactivateSchedule, listOwnSchedules, readSchedule } from '../use-cases/schedules.use-case.js';

const tags = ['schedules'];
const notFound = errorResponses('NOT_FOUND');
const publicScheduleEnvelope = dataEnvelope(publicScheduleRecordSchema);

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
          'With a secret or restricted key: the whole schedule. With a publishable key: only a schedule with public_booking: true (any other is a 404), and only its fields id, name, timezone, slot_duration and seats_per_slot.',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(scheduleRecordSchema), ...notFound },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      // The document keeps the one Schedule shape of secret keys (a union would break every typed client of them);
      // a publishable key's subset is written by its own schema, which admits nothing else.
      // a publishable key's subset is written by its own schema, which admits nothing else (set once the read
      // succeeded: an error keeps the error body's serializer).
      const schedule = await readSchedule(ctx, caller, request.params.id);
      if (isPublishable(caller)) reply.serializer((payload) => JSON.stringify(publicScheduleEnvelope.parse(payload)));
      return answerRecord(request, reply, schedule);
    },
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
