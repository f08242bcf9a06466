import { bookingRecordSchema, dataEnvelope, errorResponses, updateBookingBodySchema } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { toBookingRecord } from '../domain/booking-record.js';
import { cancelBooking, updateBooking } from '../use-cases/change-booking.js';
import type { BookingContext } from '../use-cases/context.js';
import { bookingIdOf, bookingParamsSchema, callerOf } from './route-support.js';

export function registerChangeBooking(app: ServiceApp, ctx: BookingContext): void {
  app.patch(
    '/api/v1/bookings/:id',
    {
      schema: {
        operationId: 'updateBooking',
        summary: 'Change status, details, or time (start_time with end_time) of a booking',
        tags: ['bookings'],
        params: bookingParamsSchema,
        body: updateBookingBodySchema,
        response: {
          200: dataEnvelope(bookingRecordSchema),
          ...errorResponses(
            'NOT_FOUND',
            'INVALID_TRANSITION',
            'SLOT_TAKEN',
            'SLOT_UNAVAILABLE',
            'SCHEDULE_NOT_FOUND',
            'UPSTREAM_UNAVAILABLE',
          ),
        },
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
        operationId: 'cancelBooking',
        summary: 'Cancel a booking (soft delete)',
        tags: ['bookings'],
        params: bookingParamsSchema,
        response: { 200: dataEnvelope(bookingRecordSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
    },
    async (request) => {
      const booking = await cancelBooking(bookingIdOf(request.params), callerOf(request), ctx);
      return { data: toBookingRecord(booking) };
    },
  );
}
