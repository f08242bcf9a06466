import { bookingFeedRequest } from '@app/contracts';
import { messageCallerOf, type Bus } from '@app/service-kit';
import { bookingFeed } from '../use-cases/booking-feed.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

/** The request-reply endpoints other services call: `bookings.booking.feed`, for calendar-sync's ICS feeds. */
export async function serveRequests(bus: Bus, ctx: UseCaseContext): Promise<void> {
  await bus.serve(bookingFeedRequest, (request, requestId) =>
    bookingFeed(ctx, messageCallerOf(request.organization_id, requestId), request),
  );
}
