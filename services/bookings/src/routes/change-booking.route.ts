import { bookingRecordSchema, dataEnvelope, updateBookingBodySchema } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { toBookingRecord } from '../domain/booking-record.js';
import { cancelBooking, updateBooking } from '../use-cases/change-booking.js';
import type { BookingContext } from '../use-cases/context.js';
import { bookingIdOf, bookingParamsSchema, callerOf, errorResponses } from './route-support.js';

export function registerChangeBooking(app: ServiceApp, ctx: BookingContext): void {
  app.patch(
    '/api/v1/bookings/:id',
    {
      schema: {
        summary: 'Change status, details, or time (start_time with end_time) of a booking',
        tags: ['bookings'],
        params: bookingParamsSchema,
        body: updateBookingBodySchema,
        response: { 200: dataEnvelope(bookingRecordSchema), ...errorResponses },
      },
    },
    async (request) => {
      const booking = await updateBooking(bookingIdOf(request.params), request.body, callerOf(request), ctx);
      return { data: toBookingRecord(booking) };
    },
  );

  app.delete(
    '/api/v1/bookings/:id',
    {
      schema: {
        summary: 'Cancel a booking (soft delete)',
        tags: ['bookings'],
        params: bookingParamsSchema,
        response: { 200: dataEnvelope(bookingRecordSchema), 400: errorResponses[400], 404: errorResponses[404] },
      },
    },
    async (request) => {
      const booking = await cancelBooking(bookingIdOf(request.params), callerOf(request), ctx);
      return { data: toBookingRecord(booking) };
    },
  );
}
