import {
  bookingSeriesCancelledSchema,
  bookingSeriesRecordSchema,
  createBookingSeriesBodySchema,
  dataEnvelope,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { cancelSeries, createSeries, getSeries } from '../use-cases/series.use-case.js';

export function registerBookingSeries(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/booking-series',
    {
      schema: {
        operationId: 'createBookingSeries',
        summary: 'Create a recurring series of bookings (all or none)',
        tags: ['bookings'],
        body: createBookingSeriesBodySchema,
        response: {
          201: dataEnvelope(bookingSeriesRecordSchema),
          // A refusal's details name each refused occurrence: {index, start_time, code} (contracts errorDetailSchema).
          ...errorResponses(
            'SCHEDULE_NOT_FOUND',
            'NOT_FOUND',
            'SLOT_UNAVAILABLE',
            'SLOT_TAKEN',
            'DAY_LIMIT_REACHED',
            'UPSTREAM_UNAVAILABLE',
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createSeries(ctx, callerOf(request), request.body) }),
  );

  app.get(
    '/api/v1/booking-series/:id',
    {
      schema: {
        operationId: 'getBookingSeries',
        summary: 'Get a series of bookings',
        tags: ['bookings'],
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(bookingSeriesRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getSeries(ctx, callerOf(request), request.params.id)),
  );

  app.delete(
    '/api/v1/booking-series/:id',
    {
      schema: {
        operationId: 'cancelBookingSeries',
        summary: 'Cancel the occurrences of a series that have not started',
        tags: ['bookings'],
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(bookingSeriesCancelledSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await cancelSeries(ctx, callerOf(request), request.params.id, ifMatchOf(request)) }),
  );
}
