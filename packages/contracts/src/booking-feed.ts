import { z } from 'zod';
import { defineRequest } from './messaging.js';

/** Bookings per page of `bookings.booking.feed`: with 500-character titles a page stays far below NATS's 1 MB payload. */
export const BOOKING_FEED_PAGE_SIZE = 200;

/** Where the next page of `bookings.booking.feed` starts: right after this booking in (start_time, booking_id) order. */
const bookingFeedCursorSchema = z.object({ start_time: z.iso.datetime(), booking_id: z.uuid() });

/** One PENDING or CONFIRMED booking as a calendar feed shows it. */
export const bookingFeedItemSchema = z.object({
  booking_id: z.uuid(),
  start_time: z.iso.datetime(),
  end_time: z.iso.datetime(),
  status: z.enum(['PENDING', 'CONFIRMED']),
  /** The title, else `Booking: <attendee_name>` (as calendar write-back names the event). */
  summary: z.string(),
  /** Rises with every change of the booking, a status change included: the feed's SEQUENCE. */
  version: z.number().int().min(1),
  updated_at: z.iso.datetime(),
});
export type BookingFeedItem = z.infer<typeof bookingFeedItemSchema>;

/**
 * `bookings.booking.feed`: the PENDING and CONFIRMED bookings of one schedule of the organization that start in
 * [from, to), ordered by (start_time, booking_id), one page of at most BOOKING_FEED_PAGE_SIZE at a time: `after` is
 * the previous page's `next` (null on the last page). calendar-sync's ICS feed pages through it.
 */
export const bookingFeedRequest = defineRequest(
  'bookings.booking.feed',
  z.object({
    organization_id: z.uuid(),
    schedule_id: z.uuid(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    after: bookingFeedCursorSchema.nullable().default(null),
  }),
  z.object({ bookings: z.array(bookingFeedItemSchema), next: bookingFeedCursorSchema.nullable() }),
);
