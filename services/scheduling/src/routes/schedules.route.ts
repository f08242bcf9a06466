import {
  createScheduleBodySchema,
  dataEnvelope,
  deletedScheduleSchema,
  errorBodySchema,
  listEnvelope,
  listMeta,
  listSchedulesQuerySchema,
  scheduleIdParamsSchema,
  scheduleRecordSchema,
  updateScheduleBodySchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { changeSchedule, createSchedule, deactivateSchedule, getSchedule, listOwnSchedules } from '../use-cases/schedules.js';
import { callerOf } from './caller.js';

const tags = ['schedules'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** `/api/v1/schedules`: create, list, get, update and deactivate the organization's schedules. */
export function registerScheduleRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/schedules',
    { schema: { tags, body: createScheduleBodySchema, response: { 201: dataEnvelope(scheduleRecordSchema), ...errors } } },
    async (request, reply) => {
      const data = await createSchedule(request.body, callerOf(request), ctx);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/schedules',
    { schema: { tags, querystring: listSchedulesQuerySchema, response: { 200: listEnvelope(scheduleRecordSchema), ...errors } } },
    async (request) => {
      const { limit, offset, active } = request.query;
      const { records, total } = await listOwnSchedules({ limit, offset, active }, callerOf(request), ctx);
      return { data: records, meta: listMeta(total, limit, offset) };
    },
  );

  app.get(
    '/api/v1/schedules/:id',
    { schema: { tags, params: scheduleIdParamsSchema, response: { 200: dataEnvelope(scheduleRecordSchema), ...errors } } },
    async (request) => ({ data: await getSchedule(request.params.id, callerOf(request), ctx) }),
  );

  app.patch(
    '/api/v1/schedules/:id',
    {
      schema: {
        tags,
        params: scheduleIdParamsSchema,
        body: updateScheduleBodySchema,
        response: { 200: dataEnvelope(scheduleRecordSchema), ...errors },
      },
    },
    async (request) => ({ data: await changeSchedule(request.params.id, request.body, callerOf(request), ctx) }),
  );

  app.delete(
    '/api/v1/schedules/:id',
    { schema: { tags, params: scheduleIdParamsSchema, response: { 200: dataEnvelope(deletedScheduleSchema), ...errors } } },
    async (request) => ({ data: await deactivateSchedule(request.params.id, callerOf(request), ctx) }),
  );
}
