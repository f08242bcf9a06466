import { bookingFeedRequest, type BookingFeedItem } from '@app/contracts';
import type { z } from 'zod';
import type { Bus } from '@app/service-kit';

/**
 * The most bookings one feed shows: ten pages of `bookings.booking.feed`. A schedule busier than that (over five
 * bookings a day, every day of the window's 13 months) shows its earliest ones, from 30 days ago on, and the body stays
 * within a megabyte or so.
 */
const MAX_FEED_BOOKINGS = 2000;

/** The bookings service over NATS. */
export class BookingsClient {
  constructor(private readonly bus: Bus) {}

  /** The schedule's PENDING and CONFIRMED bookings starting in [from, to), by start time, at most MAX_FEED_BOOKINGS. */
  async feedBookings(
    organizationId: string,
    scheduleId: string,
    window: { from: Date; to: Date },
    requestId?: string,
  ): Promise<BookingFeedItem[]> {
    const bookings: BookingFeedItem[] = [];
    const base = { organization_id: organizationId, schedule_id: scheduleId, from: window.from.toISOString(), to: window.to.toISOString() };
    let after: { start_time: string; booking_id: string } | null = null;
    do {
      const page: z.output<typeof bookingFeedRequest.reply> = await this.bus.request(bookingFeedRequest, { ...base, after }, requestId);
      bookings.push(...page.bookings);
      after = page.next;
    } while (after !== null && bookings.length < MAX_FEED_BOOKINGS);
    return bookings.slice(0, MAX_FEED_BOOKINGS);
  }
}
