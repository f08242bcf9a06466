import type { BookingState, BusyWindow, EventTypeRecord, HoldState } from '@app/contracts';
import type { Queryable } from '@app/service-kit';

/*
 * The projections fed by other services' events. Each write is one statement guarded by an ordering
 * key (a booking's version, a connection's synced_at), so duplicates and late events change nothing.
 */

/**
 * Whether the schedule belongs to the organization an event speaks for. Events come from other services over
 * NATS: one naming another organization's schedule is refused, so a forged or buggy event cannot block (or
 * free) someone else's time.
 */
export async function ownsSchedule(tx: Queryable, organizationId: string, scheduleId: string): Promise<boolean> {
  const { rowCount } = await tx.query('SELECT 1 FROM schedules WHERE id = $1::uuid AND organization_id = $2::uuid', [
    scheduleId,
    organizationId,
  ]);
  return rowCount === 1;
}

/**
 * Upserts a booking's state unless the projection already holds this or a newer version, when the booking's
 * schedule is the organization's (see ownsSchedule), in one statement: it runs once per booking event. Returns
 * whether the schedule is the organization's (false: nothing was written).
 */
export async function applyBookingState(tx: Queryable, organizationId: string, booking: BookingState): Promise<boolean> {
  const { rows } = await tx.query<{ owned: boolean }>({
    name: 'scheduling-apply-booking-state',
    text: `
      WITH owned AS (SELECT 1 FROM schedules WHERE id = $2::uuid AND organization_id = $7::uuid),
      applied AS (
        INSERT INTO booking_intervals (booking_id, schedule_id, status, start_time, end_time, version, seats, updated_at)
        SELECT $1::uuid, $2::uuid, $3, $4::timestamptz, $5::timestamptz, $6, $8, now() FROM owned
        ON CONFLICT (booking_id) DO UPDATE
           SET schedule_id = EXCLUDED.schedule_id, status = EXCLUDED.status, start_time = EXCLUDED.start_time,
               end_time = EXCLUDED.end_time, version = EXCLUDED.version, seats = EXCLUDED.seats, updated_at = now()
         WHERE booking_intervals.version < EXCLUDED.version
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM owned) AS owned`,
    values: [
      booking.booking_id,
      booking.schedule_id,
      booking.status,
      booking.start_time,
      booking.end_time,
      booking.version,
      organizationId,
      booking.seats,
    ],
  });
  return rows[0]?.owned === true;
}

/**
 * Upserts a hold's state when its schedule is the organization's, in one statement. A hold only ever leaves
 * 'active' (released or used; expiry needs no event, the reader compares expires_at with its clock), so a row that is
 * no longer active is never changed again: a duplicate or late `created` cannot bring an ended hold back.
 */
export async function applyHoldState(tx: Queryable, organizationId: string, hold: HoldState): Promise<boolean> {
  const { rows } = await tx.query<{ owned: boolean }>({
    name: 'scheduling-apply-hold-state',
    text: `
      WITH owned AS (SELECT 1 FROM schedules WHERE id = $2::uuid AND organization_id = $8::uuid),
      applied AS (
        INSERT INTO hold_intervals (hold_id, schedule_id, status, start_time, end_time, seats, expires_at, updated_at)
        SELECT $1::uuid, $2::uuid, $3, $4::timestamptz, $5::timestamptz, $6, $7::timestamptz, now() FROM owned
        ON CONFLICT (hold_id) DO UPDATE
           SET status = EXCLUDED.status, start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time,
               seats = EXCLUDED.seats, expires_at = EXCLUDED.expires_at, updated_at = now()
         WHERE hold_intervals.status = 'active' AND hold_intervals.schedule_id = EXCLUDED.schedule_id
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM owned) AS owned`,
    values: [hold.hold_id, hold.schedule_id, hold.status, hold.start_time, hold.end_time, hold.seats, hold.expires_at, organizationId],
  });
  return rows[0]?.owned === true;
}

/**
 * Upserts an event type's duration and activity, unless the projection holds a newer state of it (by the record's
 * updated_at) or its tombstone, or it is another organization's.
 */
export async function applyEventType(tx: Queryable, organizationId: string, record: EventTypeRecord): Promise<void> {
  await tx.query({
    name: 'scheduling-apply-event-type',
    text: `
      INSERT INTO event_types (id, organization_id, duration, is_active, source_updated_at)
      VALUES ($1::uuid, $2::uuid, $3, $4, $5::timestamptz)
      ON CONFLICT (id) DO UPDATE
         SET duration = EXCLUDED.duration, is_active = EXCLUDED.is_active, source_updated_at = EXCLUDED.source_updated_at
       WHERE NOT event_types.deleted AND event_types.organization_id = EXCLUDED.organization_id
         AND event_types.source_updated_at <= EXCLUDED.source_updated_at`,
    values: [record.id, organizationId, record.duration, record.is_active, record.updated_at],
  });
}

/** A deleted event type leaves a tombstone: no slots by it, and no late event brings it back. */
export async function removeEventType(tx: Queryable, organizationId: string, id: string): Promise<void> {
  await tx.query(
    `INSERT INTO event_types (id, organization_id, duration, is_active, deleted, source_updated_at)
     VALUES ($1::uuid, $2::uuid, 1, false, true, now())
     ON CONFLICT (id) DO UPDATE SET deleted = true, is_active = false WHERE event_types.organization_id = EXCLUDED.organization_id`,
    [id, organizationId],
  );
}

export interface BusySync {
  connection_id: string;
  schedule_id: string;
  range: BusyWindow;
  windows: BusyWindow[];
  synced_at: string;
}

/**
 * Replaces a connection's busy windows inside the synced range (windows reaching outside keep their outside
 * part; new ones are clipped to the range). Skipped when a newer sync was applied or the connection is gone;
 * the upsert locks the connection's row, so concurrent syncs of one connection apply one after the other.
 */
export async function applyBusySync(tx: Queryable, sync: BusySync): Promise<boolean> {
  const claimed = await tx.query(
    `INSERT INTO calendar_connections (connection_id, schedule_id, last_synced_at) VALUES ($1::uuid, $2::uuid, $3::timestamptz)
     ON CONFLICT (connection_id) DO UPDATE SET last_synced_at = EXCLUDED.last_synced_at, schedule_id = EXCLUDED.schedule_id
      WHERE calendar_connections.removed_at IS NULL AND calendar_connections.last_synced_at <= EXCLUDED.last_synced_at
     RETURNING connection_id`,
    [sync.connection_id, sync.schedule_id, sync.synced_at],
  );
  if (claimed.rowCount === 0) return false;
  await tx.query(
    `WITH cut AS (
       DELETE FROM busy_windows
        WHERE connection_id = $1::uuid AND start_time < $3::timestamptz AND end_time > $2::timestamptz
        RETURNING schedule_id, start_time, end_time)
     INSERT INTO busy_windows (connection_id, schedule_id, start_time, end_time)
     SELECT $1::uuid, schedule_id, start_time, $2::timestamptz FROM cut WHERE start_time < $2::timestamptz
     UNION ALL
     SELECT $1::uuid, schedule_id, $3::timestamptz, end_time FROM cut WHERE end_time > $3::timestamptz`,
    [sync.connection_id, sync.range.start, sync.range.end],
  );
  await tx.query(
    `INSERT INTO busy_windows (connection_id, schedule_id, start_time, end_time)
     SELECT $1::uuid, $2::uuid, clipped.start_time, clipped.end_time
       FROM jsonb_to_recordset($5::jsonb) AS w(start timestamptz, "end" timestamptz),
            LATERAL (SELECT GREATEST(w.start, $3::timestamptz) AS start_time, LEAST(w."end", $4::timestamptz) AS end_time) clipped
      WHERE clipped.end_time > clipped.start_time`,
    [sync.connection_id, sync.schedule_id, sync.range.start, sync.range.end, JSON.stringify(sync.windows)],
  );
  return true;
}

/** Drops a removed connection's windows and leaves a tombstone, so a late sync cannot bring them back. */
export async function removeConnection(tx: Queryable, connection: { connection_id: string; schedule_id: string }): Promise<void> {
  await tx.query(
    `INSERT INTO calendar_connections (connection_id, schedule_id, removed_at) VALUES ($1::uuid, $2::uuid, now())
     ON CONFLICT (connection_id) DO UPDATE SET removed_at = COALESCE(calendar_connections.removed_at, now())`,
    [connection.connection_id, connection.schedule_id],
  );
  await tx.query('DELETE FROM busy_windows WHERE connection_id = $1::uuid', [connection.connection_id]);
}
