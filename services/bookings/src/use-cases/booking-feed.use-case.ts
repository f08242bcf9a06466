import { BOOKING_FEED_PAGE_SIZE, type bookingFeedRequest, type BookingFeedItem } from '@app/contracts';
import type { Caller } from '@app/service-kit';
import type { z } from 'zod';
import { feedPage } from '../db/booking-feed.repository.js';
import { bookingSummary } from '../domain/booking-summary.js';
import type { UseCaseContext } from './context.js';

type FeedRequest = z.output<typeof bookingFeedRequest.request>;
type FeedReply = z.input<typeof bookingFeedRequest.reply>;

/**
 * One page of a schedule's bookings for calendar-sync's ICS feed (`bookings.booking.feed`). The organization is the
 * request's: calendar-sync asks only for a schedule it has checked is the organization's, and a schedule id of
 * another organization finds nothing here.
 */
export async function bookingFeed(ctx: UseCaseContext, caller: Caller, request: FeedRequest): Promise<FeedReply> {
  const rows = await feedPage(ctx.prisma, {
    organizationId: caller.organizationId,
    scheduleId: request.schedule_id.toLowerCase(),
    from: new Date(request.from),
    to: new Date(request.to),
    after: request.after && { startTime: new Date(request.after.start_time), id: request.after.booking_id.toLowerCase() },
    limit: BOOKING_FEED_PAGE_SIZE,
  });
  const bookings = rows.map((row): BookingFeedItem => ({
    booking_id: row.id,
    start_time: row.startTime.toISOString(),
    end_time: row.endTime.toISOString(),
    status: row.status === 'CONFIRMED' ? 'CONFIRMED' : 'PENDING',
    summary: bookingSummary(row),
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  }));
  const last = bookings.at(-1);
  // A full page may have more after it; a short one is the last.
  const next = last && bookings.length === BOOKING_FEED_PAGE_SIZE ? { start_time: last.start_time, booking_id: last.booking_id } : null;
  return { bookings, next };
}
