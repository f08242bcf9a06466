import { availabilityCheckRequest, scheduleGetRequest } from '@app/contracts';
import { messageCallerOf, type Bus } from '@app/service-kit';
import { activeSchedule, checkAvailability } from '../use-cases/availability.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

/** The request-reply endpoints other services call (bookings, before it inserts a booking). */
export async function serveRequests(bus: Bus, ctx: UseCaseContext): Promise<void> {
  await bus.serve(scheduleGetRequest, (request, requestId) =>
    activeSchedule(ctx, messageCallerOf(request.organization_id, requestId), request),
  );
  await bus.serve(availabilityCheckRequest, (request, requestId) =>
    checkAvailability(ctx, messageCallerOf(request.organization_id, requestId), request),
  );
}
