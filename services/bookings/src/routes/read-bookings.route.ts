import { bookingRecordSchema, dataEnvelope, listBookingsQuerySchema, listEnvelope } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { toBookingRecord } from '../domain/booking-record.js';
import type { BookingContext } from '../use-cases/context.js';
import { getBooking, listBookings } from '../use-cases/list-bookings.js';
import { bookingIdOf, bookingParamsSchema, callerOf, errorResponses } from './route-support.js';

export function registerReadBookings(app: ServiceApp, ctx: BookingContext): void {
  app.get(
    '/api/v1/bookings',
    {
      schema: {
        summary: 'List bookings by start_time',
        tags: ['bookings'],
        querystring: listBookingsQuerySchema,
        response: { 200: listEnvelope(bookingRecordSchema), 400: errorResponses[400] },
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
        summary: 'Get a booking',
        tags: ['bookings'],
        params: bookingParamsSchema,
        response: { 200: dataEnvelope(bookingRecordSchema), 404: errorResponses[404] },
      },
    },
    async (request) => {
      const booking = await getBooking(bookingIdOf(request.params), callerOf(request), ctx);
      return { data: toBookingRecord(booking) };
    },
  );
}
