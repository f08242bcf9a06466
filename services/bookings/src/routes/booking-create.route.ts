import { createBookingBodySchema, createdBookingSchema, dataEnvelope, errorResponses } from '@app/contracts';
import { callerOf, idempotencyReservation, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createBooking } from '../use-cases/booking-create.use-case.js';

export function registerCreateBooking(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/bookings',
    {
      schema: {
        operationId: 'createBooking',
        summary: 'Create a booking (PENDING)',
        tags: ['bookings'],
        body: createBookingBodySchema,
        response: {
          201: dataEnvelope(createdBookingSchema),
          ...errorResponses(
            'SCHEDULE_NOT_FOUND',
            'NOT_FOUND',
            'SLOT_UNAVAILABLE',
            'SLOT_TAKEN',
            'HOLD_INVALID',
            'DAY_LIMIT_REACHED',
            'CONFLICT',
            'UPSTREAM_UNAVAILABLE',
          ),
        },
      },
    },
    async (request, reply) => {
      // The kit answers replays of an Idempotency-Key; a first request's reservation is stored with its booking.
      const booking = await createBooking(ctx, callerOf(request), { body: request.body, reservation: idempotencyReservation(request) });
      return reply.code(201).send({ data: booking });
    },
  );
}
