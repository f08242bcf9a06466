import type { BookingRecord, ListBookingsQuery, ListMeta } from '@app/contracts';
import { listPage, notFound, recordId, type Caller, type Versioned } from '@app/service-kit';
import { bookingTagVersion } from '../domain/booking.js';
import { bookingRecord } from '../domain/booking.record.js';
import { requireClientSecret } from '../domain/client-secret-access.js';
import { startTimeWindow } from '../domain/list-window.js';
import { findBooking } from '../db/booking.repository.js';
import { BOOKING_LIST, listBookings as queryBookings } from '../db/booking-list.repository.js';
import type { UseCaseContext } from './context.js';

/** GET /api/v1/bookings: the organization's bookings by start_time, filtered and paginated. */
export async function listBookings(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListBookingsQuery,
): Promise<{ items: BookingRecord[]; meta: ListMeta }> {
  const filter = {
    scheduleId: query.schedule_id?.toLowerCase(),
    eventTypeId: query.event_type_id?.toLowerCase(),
    status: query.status,
    window: startTimeWindow(query, ctx.now()),
    attendeeEmail: query.attendee_email || undefined,
  };
  // A cursor is bound to the filters as asked: `upcoming`, not the instant it stood for when the first page was read.
  const { window: _window, ...asked } = filter;
  const filters = { ...asked, upcoming: query.upcoming, startDate: query.start_date, endDate: query.end_date };
  const page = listPage(BOOKING_LIST, { organizationId: caller.organizationId, filters }, query);
  const { items, meta } = await queryBookings(ctx.pool, caller.organizationId, filter, page);
  return { items: items.map(bookingRecord), meta };
}

/**
 * GET /api/v1/bookings/{id}: another organization's booking is as unknown as a missing one, and so is one a
 * publishable key names without its client_secret.
 */
export async function getBooking(
  ctx: UseCaseContext,
  caller: Caller,
  rawId: string,
  clientSecret?: string,
): Promise<Versioned<BookingRecord>> {
  const booking = await findBooking(ctx.pool, caller.organizationId, recordId(rawId, 'Booking'));
  if (!booking) throw notFound('Booking');
  requireClientSecret(caller, booking, clientSecret);
  return { record: bookingRecord(booking), version: bookingTagVersion(booking) };
}
