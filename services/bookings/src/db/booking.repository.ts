import { bookingStatusSchema, locationTypeSchema } from '@app/contracts';
import { SqlParams, type Queryable } from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import type { Prisma, Booking as BookingRow } from '../generated/prisma/client.js';
import { SELECTED_COLUMNS, updatedColumns } from './booking-columns.js';
import type { Db } from './prisma.js';

/** A stored booking (a Prisma row, or a pg row selected under the same field names) as the domain's Booking. */
export function toBooking(row: BookingRow): Booking {
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
  };
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

export async function findBooking(db: Db, organizationId: string, id: string): Promise<Booking | null> {
  const row = await db.booking.findFirst({ where: { id, organizationId } });
  return row ? toBooking(row) : null;
}

/**
 * Reads the booking under a row lock (SELECT … FOR UPDATE) inside the caller's transaction, so that
 * concurrent changes of one booking queue up and each judges the state the previous one left.
 */
export async function lockBooking(tx: Queryable, organizationId: string, id: string): Promise<Booking | null> {
  const { rows } = await tx.query<BookingRow>(
    `SELECT ${SELECTED_COLUMNS} FROM bookings WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE`,
    [id, organizationId],
  );
  const [row] = rows;
  return row ? toBooking(row) : null;
}
