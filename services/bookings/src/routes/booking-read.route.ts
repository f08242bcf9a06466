import {
  bookingRecordSchema,
  clientSecretQuerySchema,
  dataEnvelope,
  errorResponses,
  ifNoneMatchHeadersSchema,
  listBookingsQuerySchema,
  listEnvelope,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { getBooking, listBookings } from '../use-cases/booking-read.use-case.js';

export function registerReadBookings(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/bookings',
    {
      schema: {
        operationId: 'listBookings',
        summary: 'List bookings by start_time',
        tags: ['bookings'],
        querystring: listBookingsQuerySchema,
        response: { 200: listEnvelope(bookingRecordSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listBookings(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/bookings/:id',
    {
      schema: {
        operationId: 'getBooking',
        summary: 'Get a booking',
        tags: ['bookings'],
        params: idParamsSchema,
        querystring: clientSecretQuerySchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(bookingRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) =>
      answerRecord(request, reply, await getBooking(ctx, callerOf(request), request.params.id, request.query.client_secret)),
  );
}
