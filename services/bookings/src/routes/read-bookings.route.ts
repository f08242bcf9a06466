import { bookingRecordSchema, dataEnvelope, errorResponses, listBookingsQuerySchema, listEnvelope } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { toBookingRecord } from '../domain/booking-record.js';
import type { BookingContext } from '../use-cases/context.js';
import { getBooking, listBookings } from '../use-cases/list-bookings.js';
import { bookingIdOf, bookingParamsSchema, callerOf } from './route-support.js';

export function registerReadBookings(app: ServiceApp, ctx: BookingContext): void {
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
      const { items, meta } = await listBookings(request.query, callerOf(request), ctx);
      return { data: items.map(toBookingRecord), meta };
    },
  );

  app.get(
    '/api/v1/bookings/:id',
    {
      schema: {
        operationId: 'getBooking',
        summary: 'Get a booking',
        tags: ['bookings'],
        params: bookingParamsSchema,
        response: { 200: dataEnvelope(bookingRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const booking = await getBooking(bookingIdOf(request.params), callerOf(request), ctx);
      return { data: toBookingRecord(booking) };
    },
  );
}
