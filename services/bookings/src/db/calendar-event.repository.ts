import { bookingCalendarEventRecordSchema, type bookingCalendarEventSchema, type BookingCalendarEventRecord } from '@app/contracts';
import { namedStatement, type Queryable } from '@app/service-kit';
import { z } from 'zod';

/** What calendar-sync reports of one booking's provider event in one connection (`calendar.booking_event.changed`). */
export type CalendarEventReport = z.output<typeof bookingCalendarEventSchema>;

/**
 * Keeps the report when it is newer than the row of its booking and connection (or the first): an older version, or
 * the same one again (a replay), changes nothing. Applied only for a booking of the event's organization on the
 * schedule the event names; false when there is none (the event is refused). Never touches the booking itself.
 */
export async function applyCalendarEvent(tx: Queryable, organizationId: string, report: CalendarEventReport): Promise<boolean> {
  const { rows } = await tx.query<{ owned: boolean }>(
    namedStatement(
      `WITH owned AS (
         SELECT id FROM bookings WHERE id = $1::uuid AND organization_id = $2::uuid AND schedule_id = $3::uuid
       ), kept AS (
         INSERT INTO booking_calendar_events AS e (booking_id, connection_id, provider, event_id, status, last_error, version)
         SELECT id, $4::uuid, $5, $6, $7, $8, $9::int FROM owned
         ON CONFLICT (booking_id, connection_id) DO UPDATE
            SET provider = EXCLUDED.provider, event_id = EXCLUDED.event_id, status = EXCLUDED.status,
                last_error = EXCLUDED.last_error, version = EXCLUDED.version, updated_at = clock_timestamp()
          WHERE e.version < EXCLUDED.version
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM owned) AS owned`,
      [
        report.booking_id,
        organizationId,
        report.schedule_id,
        report.connection_id,
        report.provider,
        report.event_id,
        report.status,
        report.last_error,
        report.version,
      ],
    ),
  );
  return rows[0]?.owned === true;
}

/** A removed connection's rows, of the event's organization's bookings only: the record shows the next, or null. */
export async function removeConnectionEvents(tx: Queryable, organizationId: string, connectionId: string): Promise<void> {
  await tx.query(
    namedStatement(
      `DELETE FROM booking_calendar_events e USING bookings b
        WHERE e.connection_id = $1::uuid AND b.id = e.booking_id AND b.organization_id = $2::uuid`,
      [connectionId, organizationId],
    ),
  );
}

/**
 * A select-list item: the record's `calendar_event` of the booking `table` names (the name or alias its statement
 * reads bookings under) as JSON, as `"calendarEvent"`: the row of its oldest connection (the first to arrive, then by
 * id), or null. A subquery per booking read, on the primary key's index: a list reads its page in one statement.
 */
export function calendarEventColumn(table: string): string {
  return `(SELECT json_build_object('connection_id', e.connection_id, 'provider', e.provider, 'event_id', e.event_id,
                                    'status', e.status, 'last_error', e.last_error, 'version', e.version,
                                    'first_at', floor(date_part('epoch', e.created_at) * 1000000)::bigint)
             FROM booking_calendar_events e WHERE e.booking_id = ${table}.id
            ORDER BY e.created_at, e.connection_id LIMIT 1) AS "calendarEvent"`;
}

const shownRowSchema = z.object({ version: z.number().int(), first_at: z.number().int() });

/**
 * The `calendarEvent` a statement read with calendarEventColumn: as the record shows it, and what of it goes into
 * the booking's ETag (its row's version, and when that row first arrived, which tells one connection's row from the
 * next one's once the first is removed).
 */
export function toCalendarEvent(value: unknown): { record: BookingCalendarEventRecord; tag: [number, number] } | null {
  if (value === null || value === undefined) return null;
  const shown = shownRowSchema.parse(value);
  return { record: bookingCalendarEventRecordSchema.parse(value), tag: [shown.version, shown.first_at] };
}
