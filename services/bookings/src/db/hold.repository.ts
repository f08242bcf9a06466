import type { Queryable } from '@app/service-kit';
import type { Hold } from '../domain/hold.js';

const HOLD_COLUMNS = `id, organization_id AS "organizationId", schedule_id AS "scheduleId", start_time AS "startTime",
  end_time AS "endTime", seats, expires_at AS "expiresAt", released_at AS "releasedAt", booking_id AS "bookingId",
  created_at AS "createdAt"`;

export async function insertHold(tx: Queryable, hold: Hold): Promise<void> {
  await tx.query(
    `INSERT INTO holds (id, organization_id, schedule_id, start_time, end_time, seats, expires_at, created_at)
     VALUES ($1::uuid, $2::uuid, $3::uuid, $4::timestamptz, $5::timestamptz, $6::int, $7::timestamptz, $8::timestamptz)`,
    [hold.id, hold.organizationId, hold.scheduleId, hold.startTime, hold.endTime, hold.seats, hold.expiresAt, hold.createdAt],
  );
}

/** The organization's hold, or null (another organization's is as unknown as a missing one). */
export async function findHold(db: Queryable, organizationId: string, id: string, lock = false): Promise<Hold | null> {
  const { rows } = await db.query<Hold>(
    `SELECT ${HOLD_COLUMNS} FROM holds WHERE id = $1::uuid AND organization_id = $2::uuid${lock ? ' FOR UPDATE' : ''}`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** Ends the hold (released, or used by a booking); the caller holds its row lock. */
export async function endHold(tx: Queryable, id: string, end: { releasedAt: Date } | { bookingId: string }): Promise<void> {
  if ('bookingId' in end) await tx.query('UPDATE holds SET booking_id = $2::uuid WHERE id = $1::uuid', [id, end.bookingId]);
  else await tx.query('UPDATE holds SET released_at = $2::timestamptz WHERE id = $1::uuid', [id, end.releasedAt]);
}
