import { bookingRecordSchema, createBookingBodySchema, dataEnvelope, errorResponses } from '@app/contracts';
import { idempotencyReservation, type ServiceApp } from '@app/service-kit';
import { toBookingRecord } from '../domain/booking-record.js';
import type { BookingContext } from '../use-cases/context.js';
import { createBooking } from '../use-cases/create-booking.js';
import { callerOf } from './route-support.js';

export function registerCreateBooking(app: ServiceApp, ctx: BookingContext): void {
  app.post(
    '/api/v1/bookings',
    {
      schema: {
        operationId: 'createBooking',
        summary: 'Create a booking (PENDING)',
        tags: ['bookings'],
        body: createBookingBodySchema,
        response: {
          201: dataEnvelope(bookingRecordSchema),
          ...errorResponses('SCHEDULE_NOT_FOUND', 'NOT_FOUND', 'SLOT_UNAVAILABLE', 'SLOT_TAKEN', 'CONFLICT', 'UPSTREAM_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => {
      // The kit answers replays of an Idempotency-Key; a first request's reservation is stored with its booking.
      const booking = await createBooking(request.body, callerOf(request), ctx, idempotencyReservation(request));
      return reply.code(201).send({ data: toBookingRecord(booking) });
    },
  );
}
