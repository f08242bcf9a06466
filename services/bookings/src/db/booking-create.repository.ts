import {
  completeReservationSql,
  namedStatement,
  outboxInsertSql,
  SqlParams,
  type OutboxRow,
  type Queryable,
  type Reservation,
} from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import { insertedColumns } from './booking-columns.js';
import { lockScheduleWrites } from './schedule-lock.js';
import { oneSeatGuardSql } from './seat-guard.js';

/** The first response of the Idempotency-Key whose reservation the request holds, stored with the booking it created. */
export interface FirstResponse {
  reservation: Reservation;
  statusCode: number;
  body: unknown;
}

/**
 * Writes a new booking, its `created` event and (with an Idempotency-Key) the key's first response as
 * ONE statement, in one round trip — creation is the hot path, so it goes through pg as a named statement
 * (planned once per connection), not through Prisma. The booking is inserted FROM the schedule's write lock,
 * so that lock is held before its row (or index entry) exists; an overlap with a live booking of the schedule
 * fails with 23P01 (isOverlapViolation). With a key, the booking is also inserted FROM the kit's completion of
 * the key's reservation: the booking and its key's response exist together or not at all (a crash in between
 * cannot leave a booking whose key a retry would take afresh), and a request whose reservation lapsed and was
 * taken over inserts nothing. Returns whether the booking was inserted.
 *
 * `oneSeat` (at `now`): the one-seat path — the statement also reads the schedule's claims (seat-guard.ts) and fails
 * with BKSUM when a hold or a shared booking needs the seat sum. Without it, the caller has judged the seats under
 * the schedule lock in its own transaction (`db` is that transaction).
 */
export async function insertBookingStatement(
  db: Queryable,
  booking: Booking,
  event: OutboxRow,
  first?: FirstResponse,
  oneSeat?: { now: Date },
): Promise<boolean> {
  const params = new SqlParams();
  const lock = lockScheduleWrites(booking.scheduleId, params);
  const guard = oneSeat ? `, ${oneSeatGuardSql(booking.scheduleId, oneSeat.now, params)}` : '';
  const keyed = first ? `, first_response AS (${completeReservationSql(first.reservation, first, params)})` : '';
  const columns = insertedColumns(booking, params);
  const bookingInsert = `
    INSERT INTO bookings (${columns.names})
    SELECT ${columns.values} FROM schedule_lock${first ? ' CROSS JOIN first_response' : ''}
    ${oneSeat ? 'WHERE NOT EXISTS (SELECT 1 FROM claims_clear)' : ''}
    RETURNING id`;
  const eventInsert = outboxInsertSql(event, params, 'booking');
  const text = `
    WITH schedule_lock AS (${lock})${guard}${keyed},
    booking AS (${bookingInsert}),
    created_event AS (${eventInsert})
    SELECT count(*)::int AS inserted FROM booking`;
  const { rows } = await db.query<{ inserted: number }>(namedStatement(text, params.values));
  return rows[0]?.inserted === 1;
}
