import { SqlParams, type Queryable } from '@app/service-kit';

/**
 * SQL taking the schedule's write lock until the transaction ends. Every write that can put a live interval
 * into `bookings_no_overlap` takes it first, so concurrent writes on one schedule queue up instead of
 * each adding its index entry and then waiting for the other's (a deadlock Postgres needs a full
 * `deadlock_timeout` to break, once per pair). The exclusion constraint stays the guarantee; the lock
 * only orders the contenders. Different schedules never wait for each other (bar a hash collision).
 */
export function lockScheduleWrites(scheduleId: string, params: SqlParams): string {
  return `SELECT pg_advisory_xact_lock(hashtextextended(${params.add(`bookings.schedule:${scheduleId}`)}, 0))`;
}

/** Takes the schedule's write lock inside `tx`'s transaction (a change of a booking, after its row lock). */
export async function lockSchedule(tx: Queryable, scheduleId: string): Promise<void> {
  const params = new SqlParams();
  await tx.query(lockScheduleWrites(scheduleId, params), params.values);
}
