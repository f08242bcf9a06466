import { bookingRecordSchema, createBookingBodySchema, dataEnvelope, idempotencyHeadersSchema } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { BookingContext } from '../use-cases/context.js';
import { createBookingIdempotently } from '../use-cases/idempotent-create.js';
import { callerOf, errorResponses } from './route-support.js';

export function registerCreateBooking(app: ServiceApp, ctx: BookingContext): void {
  app.post(
    '/api/v1/bookings',
    {
      schema: {
        summary: 'Create a booking (PENDING)',
        tags: ['bookings'],
        headers: idempotencyHeadersSchema,
        body: createBookingBodySchema,
        response: { 201: dataEnvelope(bookingRecordSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const outcome = await createBookingIdempotently(request.body, callerOf(request), ctx, key);
      if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
      // A replayed outcome is the stored status and body of the first response (a 201, 404 or 409 of this route).
      return reply.code(outcome.statusCode as 201).send(outcome.body as never);
    },
  );
}
