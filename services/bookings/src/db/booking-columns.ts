import type { Booking } from '../domain/booking.js';
import type { SqlParams } from '@app/service-kit';
import { calendarEventColumn } from './calendar-event.repository.js';

/** One column of `bookings`: its name, the field of Prisma's Booking row it maps to, its cast, and its value in a Booking. */
interface BookingColumn {
  column: string;
  field: string;
  cast: string;
  value: (booking: Booking) => unknown;
  /** Set once, at creation. */
  fixed?: true;
}

/**
 * Every column of a booking, listed once: the creation statement inserts them, a change updates the
 * unfixed ones, and a locked read selects them under Prisma's field names (so one mapper reads both).
 */
const BOOKING_COLUMNS: BookingColumn[] = [
  { column: 'id', field: 'id', cast: 'uuid', value: (b) => b.id, fixed: true },
  { column: 'organization_id', field: 'organizationId', cast: 'uuid', value: (b) => b.organizationId, fixed: true },
  { column: 'schedule_id', field: 'scheduleId', cast: 'uuid', value: (b) => b.scheduleId },
  { column: 'event_type_id', field: 'eventTypeId', cast: 'uuid', value: (b) => b.eventTypeId },
  { column: 'start_time', field: 'startTime', cast: 'timestamptz', value: (b) => b.startTime },
  { column: 'end_time', field: 'endTime', cast: 'timestamptz', value: (b) => b.endTime },
  { column: 'status', field: 'status', cast: 'text', value: (b) => b.status },
  { column: 'title', field: 'title', cast: 'text', value: (b) => b.title },
  { column: 'timezone', field: 'timezone', cast: 'text', value: (b) => b.timezone },
  { column: 'location', field: 'location', cast: 'text', value: (b) => b.location },
  { column: 'location_type', field: 'locationType', cast: 'text', value: (b) => b.locationType },
  { column: 'metadata', field: 'metadata', cast: 'jsonb', value: (b) => (b.metadata === null ? null : JSON.stringify(b.metadata)) },
  { column: 'attendee_name', field: 'attendeeName', cast: 'text', value: (b) => b.attendee.name },
  { column: 'attendee_email', field: 'attendeeEmail', cast: 'text', value: (b) => b.attendee.email },
  { column: 'attendee_phone', field: 'attendeePhone', cast: 'text', value: (b) => b.attendee.phone },
  { column: 'attendee_timezone', field: 'attendeeTimezone', cast: 'text', value: (b) => b.attendee.timezone },
  { column: 'attendee_notes', field: 'attendeeNotes', cast: 'text', value: (b) => b.attendee.notes },
  { column: 'seats', field: 'seats', cast: 'int', value: (b) => b.seats, fixed: true },
  { column: 'shared', field: 'shared', cast: 'boolean', value: (b) => b.shared },
  { column: 'series_id', field: 'seriesId', cast: 'uuid', value: (b) => b.seriesId, fixed: true },
  { column: 'client_secret_hash', field: 'clientSecretHash', cast: 'bytea', value: (b) => b.clientSecretHash, fixed: true },
  { column: 'version', field: 'version', cast: 'int', value: (b) => b.version },
  { column: 'created_at', field: 'createdAt', cast: 'timestamptz', value: (b) => b.createdAt, fixed: true },
  { column: 'updated_at', field: 'updatedAt', cast: 'timestamptz', value: (b) => b.updatedAt },
];

/** `(id, organization_id, …)` and `$1::uuid, $2::uuid, …` of an insert of `booking`. */
export function insertedColumns(booking: Booking, params: SqlParams): { names: string; values: string } {
  return {
    names: BOOKING_COLUMNS.map((c) => c.column).join(', '),
    values: BOOKING_COLUMNS.map((c) => `${params.add(c.value(booking))}::${c.cast}`).join(', '),
  };
}

/** `schedule_id = $n::uuid, …`: what a change of `booking` writes (everything but its identity and creation time). */
export function updatedColumns(booking: Booking, params: SqlParams): string {
  return BOOKING_COLUMNS.filter((c) => !c.fixed)
    .map((c) => `${c.column} = ${params.add(c.value(booking))}::${c.cast}`)
    .join(', ');
}

/** The select list of a booking under Prisma's field names (`schedule_id AS "scheduleId"`, …). */
const SELECTED_COLUMNS = BOOKING_COLUMNS.map((c) => `${c.column} AS "${c.field}"`).join(', ');

/**
 * The select list of a booking as its record shows it: its columns (SELECTED_COLUMNS) and its provider event as
 * `"calendarEvent"` (calendarEventColumn), which toBooking reads. `table` is the name or alias the statement reads
 * bookings under.
 */
export function shownColumns(table: string): string {
  return `${SELECTED_COLUMNS}, ${calendarEventColumn(table)}`;
}
