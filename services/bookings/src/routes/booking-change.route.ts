import {
  bookingRecordSchema,
  clientSecretQuerySchema,
  dataEnvelope,
  errorResponses,
  ifMatchHeadersSchema,
  updateBookingBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import { cancelBooking, updateBooking } from '../use-cases/booking-change.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

export function registerChangeBooking(app: ServiceApp, ctx: UseCaseContext): void {
  app.patch(
    '/api/v1/bookings/:id',
    {
      schema: {
        operationId: 'updateBooking',
        summary: 'Change status, details, or time (start_time with end_time) of a booking',
        tags: ['bookings'],
        params: idParamsSchema,
        querystring: clientSecretQuerySchema,
        headers: ifMatchHeadersSchema,
        body: updateBookingBodySchema,
        response: {
          200: dataEnvelope(bookingRecordSchema),
          ...errorResponses(
            'NOT_FOUND',
            'INVALID_TRANSITION',
            'SLOT_TAKEN',
            'SLOT_UNAVAILABLE',
            'DAY_LIMIT_REACHED',
            'FORBIDDEN',
            'SCHEDULE_NOT_FOUND',
            'UPSTREAM_UNAVAILABLE',
          ),
        },
      },
    },
    async (request, reply) => {
      const changes = {
        id: request.params.id,
        changes: request.body,
        ifMatch: ifMatchOf(request),
        clientSecret: request.query.client_secret,
      };
      return answerRecord(request, reply, await updateBooking(ctx, callerOf(request), changes));
    },
  );

  app.delete(
    '/api/v1/bookings/:id',
    {
      schema: {
        operationId: 'cancelBooking',
        summary: 'Cancel a booking (soft delete)',
        tags: ['bookings'],
        params: idParamsSchema,
        querystring: clientSecretQuerySchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(bookingRecordSchema), ...errorResponses('NOT_FOUND', 'INVALID_TRANSITION') },
      },
    },
    async (request) => {
      const booking = await cancelBooking(ctx, callerOf(request), {
        id: request.params.id,
        ifMatch: ifMatchOf(request),
        clientSecret: request.query.client_secret,
      });
      return { data: booking };
    },
  );
}
