import type { BookingFeedItem } from '@app/contracts';
import ical, { ICalEventStatus } from 'ical-generator';

/** The PRODID of every feed: who made the calendar (RFC 5545 §3.7.3). */
const PRODUCT = { company: 'scheduling-shop', product: 'calendar-sync', language: 'EN' };

/**
 * A schedule's bookings as an RFC 5545 calendar (ical-generator escapes the text and folds the lines). Nothing in it
 * depends on when it is made, so the same bookings give the same bytes, which the ETag and Last-Modified rest on:
 * - UID `<booking id>@<host>`: one event per booking for as long as it lives;
 * - DTSTAMP and LAST-MODIFIED: the booking's updated_at (without METHOD, DTSTAMP is the last revision's time);
 * - SEQUENCE: its version less one, so 0 at creation and one more with every change (a status change included);
 * - STATUS: TENTATIVE while PENDING, CONFIRMED once confirmed; DTSTART/DTEND in UTC.
 */
export function feedCalendar(bookings: readonly BookingFeedItem[], uidHost: string): string {
  const calendar = ical({ prodId: PRODUCT, name: 'Bookings' });
  for (const booking of bookings) {
    const revised = new Date(booking.updated_at);
    calendar.createEvent({
      id: `${booking.booking_id}@${uidHost}`,
      start: new Date(booking.start_time),
      end: new Date(booking.end_time),
      summary: booking.summary,
      stamp: revised,
      lastModified: revised,
      sequence: booking.version - 1,
      status: booking.status === 'PENDING' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
