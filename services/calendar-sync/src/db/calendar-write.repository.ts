import type { OAuthCalendarProvider } from '@app/contracts';
import type { Queryable } from '@app/service-kit';
import type { BookingWrite, StoredWrite } from '../domain/calendar-write.js';
import type { WriteDecision } from '../domain/write-decision.js';

/** A calendar_writes row as the decisions read it. */
const WRITE_COLUMNS = `w.connection_id::text AS "connectionId", w.booking_id::text AS "bookingId",
  w.organization_id::text AS "organizationId", w.schedule_id::text AS "scheduleId", w.calendar_id AS "calendarId",
  w.booking_version AS "bookingVersion", w.desired, w.start_time AS "startTime", w.end_time AS "endTime", w.summary,
  w.attendee_email AS "attendeeEmail", w.event_id AS "eventId", w.status, w.last_error AS "lastError",
  w.retry_not_before AS "retryNotBefore", w.version`;

export interface WritingConnection {
  id: string;
  provider: OAuthCalendarProvider;
  writeCalendarId: string;
}

/** Of these organizations, those with a connection that writes bookings back: the only ones the consumer has work for. */
export async function organizationsWritingBack(db: Queryable, organizationIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT DISTINCT organization_id::text AS id FROM calendar_connections
      WHERE organization_id = ANY($1::uuid[]) AND write_calendar_id IS NOT NULL`,
    [organizationIds],
  );
  return new Set(rows.map((row) => row.id));
}

/** The schedule's connections that write its bookings back (of the event's organization only). */
export async function writingConnections(db: Queryable, organizationId: string, scheduleId: string): Promise<WritingConnection[]> {
  const { rows } = await db.query<WritingConnection>(
    `SELECT id::text AS id, provider, write_calendar_id AS "writeCalendarId" FROM calendar_connections
      WHERE organization_id = $1::uuid AND schedule_id = $2::uuid AND write_calendar_id IS NOT NULL
      ORDER BY created_at, id`,
    [organizationId, scheduleId],
  );
  return rows;
}

/** The row, locked until the transaction ends (the writer's finish and other consumers' events wait for it). */
export async function lockWrite(db: Queryable, connectionId: string, bookingId: string): Promise<StoredWrite | null> {
  const { rows } = await db.query<StoredWrite>(
    `SELECT ${WRITE_COLUMNS} FROM calendar_writes w WHERE w.connection_id = $1::uuid AND w.booking_id = $2::uuid FOR UPDATE`,
    [connectionId, bookingId],
  );
  return rows[0] ?? null;
}

/**
 * The first row of a booking in a connection: due at once when it is to be written, else only its version is kept
 * (a late, older event of the booking is then ignored). Null when another event's row got there first.
 */
export async function insertWrite(
  db: Queryable,
  connection: WritingConnection,
  write: BookingWrite,
  due: boolean,
): Promise<StoredWrite | null> {
  const { rows } = await db.query<StoredWrite>(
    `INSERT INTO calendar_writes AS w (connection_id, booking_id, organization_id, schedule_id, calendar_id, booking_version, desired,
            start_time, end_time, summary, attendee_email, status, next_attempt_at)
     VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (connection_id, booking_id) DO NOTHING
     RETURNING ${WRITE_COLUMNS}`,
    [
      connection.id,
      write.bookingId,
      write.organizationId,
      write.scheduleId,
      connection.writeCalendarId,
      write.bookingVersion,
      write.desired,
      write.start,
      write.end,
      write.summary,
      write.attendeeEmail,
      due ? 'pending' : 'synced',
      due ? new Date() : null,
    ],
  );
  return rows[0] ?? null;
}

/** A newer booking version that changes nothing the provider shows: only the version moves. */
export async function raiseBookingVersion(db: Queryable, row: StoredWrite, bookingVersion: number): Promise<void> {
  await db.query(
    `UPDATE calendar_writes SET booking_version = $3, updated_at = now() WHERE connection_id = $1::uuid AND booking_id = $2::uuid`,
    [row.connectionId, row.bookingId, bookingVersion],
  );
}

/**
 * A newer booking state the provider must show: the row is pending again and due at once (after any Retry-After), with
 * a fresh backoff. Its calendar stays the one its event was written to. `bump` raises the version (the shown state changed).
 */
export async function markPending(db: Queryable, row: StoredWrite, write: BookingWrite, bump: boolean): Promise<StoredWrite> {
  const { rows } = await db.query<StoredWrite>(
    `UPDATE calendar_writes w
        SET booking_version = $3, desired = $4, start_time = $5, end_time = $6, summary = $7, attendee_email = $8,
            status = 'pending', last_error = NULL, attempts = 0,
            next_attempt_at = GREATEST(now(), COALESCE(w.retry_not_before, now())),
            version = w.version + $9::int, updated_at = now()
      WHERE w.connection_id = $1::uuid AND w.booking_id = $2::uuid
     RETURNING ${WRITE_COLUMNS}`,
    [
      row.connectionId,
      row.bookingId,
      write.bookingVersion,
      write.desired,
      write.start,
      write.end,
      write.summary,
      write.attendeeEmail,
      bump ? 1 : 0,
    ],
  );
  return lockedRow(rows);
}

/** The row as the attempt that holds `leaseToken` left it; null when the lease was lost (or the connection deleted). */
export async function lockLeasedWrite(
  db: Queryable,
  key: { connectionId: string; bookingId: string; leaseToken: string },
): Promise<(StoredWrite & { attempts: number }) | null> {
  const { rows } = await db.query<StoredWrite & { attempts: number }>(
    `SELECT ${WRITE_COLUMNS}, w.attempts FROM calendar_writes w
      WHERE w.connection_id = $1::uuid AND w.booking_id = $2::uuid AND w.lease_token = $3::uuid FOR UPDATE`,
    [key.connectionId, key.bookingId, key.leaseToken],
  );
  return rows[0] ?? null;
}

/** Writes an attempt's decision and gives the lease back; `bump` raises the version (the shown state changed). */
export async function saveWriteDecision(
  db: Queryable,
  key: { connectionId: string; bookingId: string },
  decision: WriteDecision,
  bump: boolean,
): Promise<StoredWrite> {
  const { rows } = await db.query<StoredWrite>(
    `UPDATE calendar_writes w
        SET event_id = $3, status = $4, last_error = $5, attempts = $6, next_attempt_at = $7, retry_not_before = $8,
            lease_token = NULL, lease_expires_at = NULL, version = w.version + $9::int, updated_at = now()
      WHERE w.connection_id = $1::uuid AND w.booking_id = $2::uuid
     RETURNING ${WRITE_COLUMNS}`,
    [
      key.connectionId,
      key.bookingId,
      decision.eventId,
      decision.status,
      decision.lastError,
      decision.attempts,
      decision.nextAttemptAt,
      decision.retryNotBefore,
      bump ? 1 : 0,
    ],
  );
  return lockedRow(rows);
}

/** The row an UPDATE under the caller's row lock returned: it cannot be gone, the lock holds it. */
function lockedRow(rows: readonly StoredWrite[]): StoredWrite {
  const row = rows[0];
  if (!row) throw new Error('calendar write vanished under its row lock');
  return row;
}
