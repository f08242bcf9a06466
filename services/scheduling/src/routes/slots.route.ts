import { errorResponses, slotsQuerySchema, slotsResponseSchema } from '@app/contracts';
import { optionalCallerOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { findSlots } from '../use-cases/slots.use-case.js';

/** `GET /api/bookings/slots`: public (booking pages call it without a key), so the organization is optional. */
export function registerSlotRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/bookings/slots',
    {
      schema: {
        operationId: 'listSlots',
        summary: "A schedule's available slots, day by day (public: no key needed)",
        description:
          "Each slot carries seats_remaining (at least 1). With eventTypeId, slots are as long as that event type's duration and step by the schedule's slot_interval when it was set, else by the duration; an unknown, inactive or other organization's event type is a 404 NOT_FOUND.",
        tags: ['slots'],
        security: [],
        querystring: slotsQuerySchema,
        response: { 200: slotsResponseSchema, ...errorResponses('SCHEDULE_NOT_FOUND', 'NOT_FOUND') },
      },
    },
    async (request) => findSlots(ctx, optionalCallerOf(request), request.query),
  );
}
