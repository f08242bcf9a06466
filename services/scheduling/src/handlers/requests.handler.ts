import { availabilityCheckRequest, scheduleGetRequest } from '@app/contracts';
import type { Bus } from '@app/service-kit';
import { activeSchedule, checkAvailability } from '../use-cases/availability.js';
import type { UseCaseContext } from '../use-cases/context.js';

/** The request-reply endpoints other services call (bookings, before it inserts a booking). */
export async function serveRequests(bus: Bus, ctx: UseCaseContext): Promise<void> {
  await bus.serve(scheduleGetRequest, (request) => activeSchedule(request, ctx));
  await bus.serve(availabilityCheckRequest, (request) => checkAvailability(request, ctx));
}
