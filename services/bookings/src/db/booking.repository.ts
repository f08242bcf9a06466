import { bookingStatusSchema, locationTypeSchema } from '@app/contracts';
import { namedStatement, SqlParams, type Queryable } from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import type { Prisma, Booking as BookingRow } from '../generated/prisma/client.js';
import { shownColumns, updatedColumns } from './booking-columns.js';
import { toCalendarEvent } from './calendar-event.repository.js';

/** A booking's row as a statement selects it with shownColumns: Prisma's field names, and its provider event. */
export type ShownBookingRow = BookingRow & { calendarEvent: unknown };

/** A stored booking, selected with shownColumns, as the domain's Booking. */
export function toBooking(row: ShownBookingRow): Booking {
  return {
    id: row.id,
    organizationId: row.organizationId,
    scheduleId: row.scheduleId,
    eventTypeId: row.eventTypeId,
    startTime: row.startTime,
    endTime: row.endTime,
    status: bookingStatusSchema.parse(row.status),
    title: row.title,
    timezone: row.timezone,
    location: row.location,
    locationType: row.locationType === null ? null : locationTypeSchema.parse(row.locationType),
    metadata: isObject(row.metadata) ? row.metadata : null,
    attendee: {
      name: row.attendeeName,
      email: row.attendeeEmail,
      phone: row.attendeePhone,
      timezone: row.attendeeTimezone,
      notes: row.attendeeNotes,
    },
    seats: row.seats,
    shared: row.shared,
    seriesId: row.seriesId,
    clientSecretHash: row.clientSecretHash,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...shownCalendarEvent(row.calendarEvent),
  };
}

function shownCalendarEvent(value: unknown): Pick<Booking, 'calendarEvent' | 'calendarEventTag'> {
  const shown = toCalendarEvent(value);
  return { calendarEvent: shown?.record ?? null, calendarEventTag: shown?.tag ?? [] };
}

function isObject(value: Prisma.JsonValue): value is Prisma.JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Writes the booking's new state; the caller holds the row lock (lockBooking). */
export async function saveBooking(tx: Queryable, booking: Booking): Promise<void> {
  const params = new SqlParams();
  const id = params.add(booking.id);
  await tx.query(`UPDATE bookings SET ${updatedColumns(booking, params)} WHERE id = ${id}::uuid`, params.values);
}

/** The organization's booking `id` as its record shows it, in one statement (its provider event beside it). */
export async function findBooking(db: Queryable, organizationId: string, id: string): Promise<Booking | null> {
  const { rows } = await db.query<ShownBookingRow>(
    namedStatement(`SELECT ${shownColumns('bookings')} FROM bookings WHERE id = $1::uuid AND organization_id = $2::uuid`, [
      id,
      organizationId,
    ]),
  );
  const [row] = rows;
  return row ? toBooking(row) : null;
}

/**
 * Reads the booking under a row lock (SELECT … FOR UPDATE) inside the caller's transaction, so that
 * concurrent changes of one booking queue up and each judges the state the previous one left.
 */
export async function lockBooking(tx: Queryable, organizationId: string, id: string): Promise<Booking | null> {
  const { rows } = await tx.query<ShownBookingRow>(
    `SELECT ${shownColumns('bookings')} FROM bookings WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE`,
    [id, organizationId],
  );
  const [row] = rows;
  return row ? toBooking(row) : null;
}
