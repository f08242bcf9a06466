import type { BookingStatus, ListMeta } from '@app/contracts';
import { pageOfRows, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import { escapeLike, type StartTimeWindow } from '../domain/list-window.js';
import { shownColumns } from './booking-columns.js';
import { toBooking, type ShownBookingRow } from './booking.repository.js';

export interface BookingFilter {
  scheduleId?: string | undefined;
  eventTypeId?: string | undefined;
  status?: BookingStatus | undefined;
  window: StartTimeWindow;
  attendeeEmail?: string | undefined;
}

/** By start_time, then id (a total order, as cursors need): served by bookings_org_start_idx (organization, start_time, id). */
export const BOOKING_LIST: ListDefinition = {
  name: 'bookings',
  order: {
    keys: [
      { column: 'start_time', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

function conditionsOf(organizationId: string, filter: BookingFilter, params: SqlParams): string[] {
  const { from, before, until } = filter.window;
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`];
  if (filter.scheduleId) conditions.push(`t.schedule_id = ${params.add(filter.scheduleId)}::uuid`);
  if (filter.eventTypeId) conditions.push(`t.event_type_id = ${params.add(filter.eventTypeId)}::uuid`);
  if (filter.status) conditions.push(`t.status = ${params.add(filter.status)}`);
  if (from) conditions.push(`t.start_time >= ${params.add(from)}::timestamptz`);
  if (before) conditions.push(`t.start_time < ${params.add(before)}::timestamptz`);
  if (until) conditions.push(`t.start_time <= ${params.add(until)}::timestamptz`);
  // Served by the trigram index on attendee_email; the filter's own % and _ match literally.
  if (filter.attendeeEmail) conditions.push(`t.attendee_email ILIKE ${params.add(`%${escapeLike(filter.attendeeEmail)}%`)}`);
  return conditions;
}

/** One page of the organization's bookings in BOOKING_LIST's order, and its meta, in one statement. */
export async function listBookings(
  db: Queryable,
  organizationId: string,
  filter: BookingFilter,
  page: ListPage,
): Promise<{ items: Booking[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = conditionsOf(organizationId, filter, params);
  // Each booking's provider event comes in the same statement (a subquery per row of the page): no query per booking.
  const columns = shownColumns('t');
  const { rows, meta } = await pageOfRows<ShownBookingRow>(db, page, { table: 'bookings', conditions, params, columns });
  return { items: rows.map(toBooking), meta };
}
