import type { BookingStatus } from '@app/contracts';
import type { Booking } from '../domain/booking.js';
import { escapeLike, type StartTimeWindow } from '../domain/list-window.js';
import type { Prisma } from '../generated/prisma/client.js';
import { toBooking } from './booking.repository.js';
import type { Db } from './prisma.js';

export interface BookingFilter {
  scheduleId?: string;
  eventTypeId?: string;
  status?: BookingStatus;
  window: StartTimeWindow;
  attendeeEmail?: string;
}

function whereOf(organizationId: string, filter: BookingFilter): Prisma.BookingWhereInput {
  const { from, before, until } = filter.window;
  const startTime: Prisma.DateTimeFilter = {};
  if (from) startTime.gte = from;
  if (before) startTime.lt = before;
  if (until) startTime.lte = until;
  return {
    organizationId,
    ...(filter.scheduleId && { scheduleId: filter.scheduleId }),
    ...(filter.eventTypeId && { eventTypeId: filter.eventTypeId }),
    ...(filter.status && { status: filter.status }),
    ...(Object.keys(startTime).length > 0 && { startTime }),
    // Prisma passes `contains` into ILIKE '%…%' unescaped, so the filter's own % and _ are escaped here.
    ...(filter.attendeeEmail && { attendeeEmail: { contains: escapeLike(filter.attendeeEmail), mode: 'insensitive' } }),
  };
}

/** One page of the organization's bookings by start_time (then id, for a stable order), and the total. */
export async function listBookings(
  db: Db,
  organizationId: string,
  filter: BookingFilter,
  page: { limit: number; offset: number },
): Promise<{ items: Booking[]; total: number }> {
  const where = whereOf(organizationId, filter);
  const [rows, total] = await Promise.all([
    db.booking.findMany({ where, orderBy: [{ startTime: 'asc' }, { id: 'asc' }], skip: page.offset, take: page.limit }),
    db.booking.count({ where }),
  ]);
  return { items: rows.map(toBooking), total };
}
