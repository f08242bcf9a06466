import { namedStatement, SqlParams, type Queryable } from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import type { IdempotencyKeyRef } from './idempotency.repository.js';
import type { OutboxEvent } from './outbox-event.js';
import { lockScheduleWrites } from './schedule-lock.js';

/** The first response of an Idempotency-Key, stored with the booking it created. */
export interface FirstResponse extends IdempotencyKeyRef {
  statusCode: number;
  body: unknown;
}

/**
 * Writes a new booking, its `created` event and (with an Idempotency-Key) the key's first response as
 * ONE statement, in one round trip — creation is the hot path, so it goes through pg as a named statement
 * (planned once per connection), not through Prisma. The booking and the key are inserted FROM the
 * schedule's write lock, so that lock is held before either row (or its index entry) exists. The
 * database decides the races: an overlap with a live booking of the schedule fails with 23P01
 * (isOverlapViolation), a key another request already holds with 23505 on its primary key
 * (isKeyTaken), after waiting for that request to commit.
 */
export async function insertBookingStatement(db: Queryable, booking: Booking, event: OutboxEvent, key?: FirstResponse): Promise<void> {
  const params = new SqlParams();
  const $ = (value: unknown) => params.add(value);
  const { attendee } = booking;
  const lock = lockScheduleWrites(booking.scheduleId, params);
  const bookingInsert = `
    INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, status, title, timezone,
                          location, location_type, metadata, attendee_name, attendee_email, attendee_phone,
                          attendee_timezone, attendee_notes, version, created_at, updated_at)
    SELECT ${$(booking.id)}::uuid, ${$(booking.organizationId)}::uuid, ${$(booking.scheduleId)}::uuid, ${$(booking.eventTypeId)}::uuid,
           ${$(booking.startTime)}::timestamptz, ${$(booking.endTime)}::timestamptz, ${$(booking.status)}, ${$(booking.title)},
           ${$(booking.timezone)}, ${$(booking.location)}, ${$(booking.locationType)},
           ${$(booking.metadata === null ? null : JSON.stringify(booking.metadata))}::jsonb,
           ${$(attendee.name)}, ${$(attendee.email)}, ${$(attendee.phone)}, ${$(attendee.timezone)}, ${$(attendee.notes)},
           ${$(booking.version)}::int, ${$(booking.createdAt)}::timestamptz, ${$(booking.updatedAt)}::timestamptz
      FROM schedule_lock`;
  const eventInsert = `INSERT INTO outbox (id, subject, payload) VALUES (${$(event.id)}::uuid, ${$(event.subject)}, ${$(event.payload)}::jsonb)`;
  const keyInsert = key
    ? `, first_response AS (
        INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response_body)
        SELECT ${$(key.organizationId)}::uuid, ${$(key.key)}, ${$(key.requestHash)}, ${$(key.statusCode)}::int, ${$(JSON.stringify(key.body))}::jsonb
          FROM schedule_lock)`
    : '';
  const text = `
    WITH schedule_lock AS (${lock}),
    booking AS (${bookingInsert}),
    created_event AS (${eventInsert})
    ${keyInsert}
    SELECT 1`;
  await db.query(namedStatement(text, params.values));
}
