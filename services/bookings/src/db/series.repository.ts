import type { Queryable } from '@app/service-kit';
import type { Booking } from '../domain/booking.js';
import { shownColumns } from './booking-columns.js';
import { toBooking, type ShownBookingRow } from './booking.repository.js';

export async function insertSeries(
  tx: Queryable,
  series: { id: string; organizationId: string; scheduleId: string; createdAt: Date },
): Promise<void> {
  await tx.query(
    'INSERT INTO booking_series (id, organization_id, schedule_id, created_at) VALUES ($1::uuid, $2::uuid, $3::uuid, $4::timestamptz)',
    [series.id, series.organizationId, series.scheduleId, series.createdAt],
  );
}

export async function seriesExists(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM booking_series WHERE id = $1::uuid AND organization_id = $2::uuid', [
    id,
    organizationId,
  ]);
  return rowCount === 1;
}

/** The series' bookings by start, optionally under row locks (a cancellation of the series). */
export async function seriesBookings(db: Queryable, organizationId: string, id: string, lock = false): Promise<Booking[]> {
  const { rows } = await db.query<ShownBookingRow>(
    `SELECT ${shownColumns('bookings')} FROM bookings WHERE series_id = $1::uuid AND organization_id = $2::uuid ORDER BY start_time, id${lock ? ' FOR UPDATE' : ''}`,
    [id, organizationId],
  );
  return rows.map(toBooking);
}
