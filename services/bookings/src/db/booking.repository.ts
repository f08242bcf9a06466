import { bookingStatusSchema, locationTypeSchema } from '@app/contracts';
import type { Booking } from '../domain/booking.js';
import { Prisma, type Booking as BookingRow } from '../generated/prisma/client.js';
import type { Db } from './client.js';

function toBooking(row: BookingRow): Booking {
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
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function isObject(value: Prisma.JsonValue): value is Prisma.JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The columns a write sets (everything but the id and the owner, which never change). */
function writableColumns(booking: Booking) {
  return {
    scheduleId: booking.scheduleId,
    eventTypeId: booking.eventTypeId,
    startTime: booking.startTime,
    endTime: booking.endTime,
    status: booking.status,
    title: booking.title,
    timezone: booking.timezone,
    location: booking.location,
    locationType: booking.locationType,
    metadata: booking.metadata === null ? Prisma.DbNull : (booking.metadata as Prisma.InputJsonObject),
    attendeeName: booking.attendee.name,
    attendeeEmail: booking.attendee.email,
    attendeePhone: booking.attendee.phone,
    attendeeTimezone: booking.attendee.timezone,
    attendeeNotes: booking.attendee.notes,
    version: booking.version,
    updatedAt: booking.updatedAt,
  };
}

/** Writes the booking's new state; the caller holds the row lock (lockBooking). */
export async function saveBooking(db: Db, booking: Booking): Promise<void> {
  await db.booking.update({ where: { id: booking.id }, data: writableColumns(booking) });
}

export async function findBooking(db: Db, organizationId: string, id: string): Promise<Booking | null> {
  const row = await db.booking.findFirst({ where: { id, organizationId } });
  return row ? toBooking(row) : null;
}

/**
 * Reads the booking under a row lock (SELECT … FOR UPDATE) inside the caller's transaction, so that
 * concurrent changes of one booking queue up and each judges the state the previous one left.
 */
export async function lockBooking(tx: Prisma.TransactionClient, organizationId: string, id: string): Promise<Booking | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM bookings WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  return findBooking(tx, organizationId, id);
}

export { toBooking };
