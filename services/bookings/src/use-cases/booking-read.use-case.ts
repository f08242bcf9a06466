import { listMeta, type BookingRecord, type ListBookingsQuery, type ListMeta } from '@app/contracts';
import { notFound, recordId, type Caller, type Versioned } from '@app/service-kit';
import { bookingRecord } from '../domain/booking.record.js';
import { startTimeWindow } from '../domain/list-window.js';
import { findBooking } from '../db/booking.repository.js';
import { listBookings as queryBookings } from '../db/booking-list.repository.js';
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
  const { items, total } = await queryBookings(ctx.prisma, caller.organizationId, filter, { limit: query.limit, offset: query.offset });
  return { items: items.map(bookingRecord), meta: listMeta(total, query.limit, query.offset) };
}

/** GET /api/v1/bookings/{id}: another organization's booking is as unknown as a missing one. */
export async function getBooking(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<BookingRecord>> {
  const booking = await findBooking(ctx.prisma, caller.organizationId, recordId(rawId, 'Booking'));
  if (!booking) throw notFound('Booking');
  return { record: bookingRecord(booking), version: booking.version };
}
