import { SqlParams, type Queryable } from '@app/service-kit';

/** The SQLSTATE of bookings_needs_seat_sum() (migration 0005): the one-seat statement handed over to the summing path. */
const NEEDS_SEAT_SUM = 'BKSUM';

export function needsSeatSum(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === NEEDS_SEAT_SUM;
}

/**
 * CTEs of the one-seat statement, after its `schedule_lock` CTE: `claims` reads the schedule's row of schedule_claims
 * through INSERT … ON CONFLICT DO UPDATE, which judges the latest committed row whatever the statement's snapshot (a
 * plain SELECT could miss a hold committed while the statement waited for the lock), and returns it only when a hold
 * may be active or a shared booking exists; `claims_clear` then raises BKSUM. Otherwise the row is only locked (no new
 * version is written) and the exclusion constraint is the whole guard, as for every booking before seats.
 */
export function oneSeatGuardSql(scheduleId: string, now: Date, params: SqlParams): string {
  const at = `${params.add(now)}::timestamptz`;
  return `claims AS (
      INSERT INTO schedule_claims (schedule_id) SELECT ${params.add(scheduleId)}::uuid FROM schedule_lock
      ON CONFLICT (schedule_id) DO UPDATE SET shared = schedule_claims.shared
        WHERE schedule_claims.shared OR schedule_claims.holds_until > ${at}
      RETURNING holds_until, shared),
    claims_clear AS (SELECT bookings_needs_seat_sum() FROM claims WHERE shared OR holds_until > ${at})`;
}

/** What the summing path judges an interval by (read under the schedule lock, in a statement after it). */
export interface Occupancy {
  /** The most seats taken at any instant of the interval by the schedule's live bookings and active holds. */
  usedSeats: number;
  /** Live bookings and active holds starting in the day. */
  dayCount: number;
}

interface OccupancyQuery {
  scheduleId: string;
  startTime: Date;
  endTime: Date;
  day: { start: Date; end: Date };
  now: Date;
  /** The booking being moved, or the hold being converted: not counted against itself. */
  exceptBookingId?: string | undefined;
  exceptHoldId?: string | undefined;
}

/**
 * The seat sum and the day's count in one statement. The most seats at any instant: a sweep over the overlapping
 * claims' starts (+seats) and ends (−seats), ends first at equal instants (intervals are half-open), whose running
 * sum peaks at the busiest instant — so staggered claims that never all overlap are judged exactly.
 */
export async function occupancy(tx: Queryable, query: OccupancyQuery): Promise<Occupancy> {
  const params = new SqlParams();
  const schedule = `${params.add(query.scheduleId)}::uuid`;
  const start = `${params.add(query.startTime)}::timestamptz`;
  const end = `${params.add(query.endTime)}::timestamptz`;
  const dayStart = `${params.add(query.day.start)}::timestamptz`;
  const dayEnd = `${params.add(query.day.end)}::timestamptz`;
  const now = `${params.add(query.now)}::timestamptz`;
  const exceptBooking = `${params.add(query.exceptBookingId ?? null)}::uuid`;
  const exceptHold = `${params.add(query.exceptHoldId ?? null)}::uuid`;
  const text = `
    WITH live AS (
      SELECT start_time, end_time, seats FROM bookings
       WHERE schedule_id = ${schedule} AND status IN ('PENDING', 'CONFIRMED')
         AND id IS DISTINCT FROM ${exceptBooking}
         AND ((start_time < ${end} AND end_time > ${start}) OR (start_time >= ${dayStart} AND start_time < ${dayEnd}))
      UNION ALL
      SELECT start_time, end_time, seats FROM holds
       WHERE schedule_id = ${schedule} AND released_at IS NULL AND booking_id IS NULL AND expires_at > ${now}
         AND id IS DISTINCT FROM ${exceptHold}
         AND ((start_time < ${end} AND end_time > ${start}) OR (start_time >= ${dayStart} AND start_time < ${dayEnd}))
    ),
    overlapping AS (SELECT * FROM live WHERE start_time < ${end} AND end_time > ${start}),
    sweep AS (
      SELECT sum(delta) OVER (ORDER BY at, delta ROWS UNBOUNDED PRECEDING) AS taken FROM (
        SELECT greatest(start_time, ${start}) AS at, seats AS delta FROM overlapping
        UNION ALL
        SELECT least(end_time, ${end}) AS at, -seats AS delta FROM overlapping
      ) AS edges
    )
    SELECT (SELECT coalesce(max(taken), 0) FROM sweep)::int AS "usedSeats",
           (SELECT count(*) FROM live WHERE start_time >= ${dayStart} AND start_time < ${dayEnd})::int AS "dayCount"`;
  const { rows } = await tx.query<Occupancy>(text, params.values);
  return rows[0] ?? { usedSeats: 0, dayCount: 0 };
}

/**
 * Notes on the schedule's claims row what sends later one-seat statements down the summing path: a shared booking, or
 * a hold active until `holdsUntil`. Written under the schedule lock, in the writer's transaction.
 */
export async function noteClaims(tx: Queryable, scheduleId: string, note: { shared?: boolean; holdsUntil?: Date }): Promise<void> {
  await tx.query(
    `INSERT INTO schedule_claims (schedule_id, holds_until, shared) VALUES ($1::uuid, $2::timestamptz, $3::boolean)
     ON CONFLICT (schedule_id) DO UPDATE SET
       holds_until = greatest(schedule_claims.holds_until, EXCLUDED.holds_until),
       shared = schedule_claims.shared OR EXCLUDED.shared`,
    [scheduleId, note.holdsUntil ?? null, note.shared ?? false],
  );
}
