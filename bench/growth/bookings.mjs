import { creation, firstSlot, openSchedule } from '../scenarios/bookings.mjs';
import { withoutIndexes } from './bulk.mjs';

const PER_SCHEDULE = 1_000;
const SCHEDULES_PER_ORG = 10;

/**
 * Booking creation on free slots of one schedule while bookings.bookings (and the scheduling projection,
 * which the availability check reads) holds `size` rows: 1,000 past bookings per schedule, 10 schedules per
 * organization; the bench organization's first schedule is the one booked, the rest belong to other
 * organizations. Seeded up to each size in turn, so the larger table contains the smaller.
 */
export default {
  name: 'booking creation vs. bookings in the table',
  x_label: 'bookings in bookings.bookings (all organizations)',
  sizes: [10_000, 1_000_000],
  async seed(ctx, size, state) {
    const scheduleId = state?.scheduleId ?? (await openSchedule(ctx, 'Growth: booking creation'));
    if (state) await projectionCaughtUp(ctx, scheduleId);
    await insertBookings(ctx, scheduleId, state?.size ?? 0, size);
    await ctx.sql('VACUUM (ANALYZE) bookings.bookings, scheduling.booking_intervals');
    // One counter across runs and sizes: every request books a slot no earlier request took.
    return { scheduleId, size, base: state?.base ?? firstSlot(), next: state?.next ?? 0 };
  },
  requests: (state) => [creation(state.scheduleId, state.base, () => state.next++)],
};

/**
 * Rows [from, to) of the seeded history, in both tables with the same ids, in one statement. The schedules' and
 * organizations' ids are computed once per schedule (a materialized list), not once per row.
 */
async function insertBookings(ctx, scheduleId, from, to) {
  await withoutIndexes(ctx, ['bookings.bookings', 'scheduling.booking_intervals'], () =>
    ctx.sql(
      `WITH schedules AS MATERIALIZED (
         SELECT s, CASE WHEN s = 0 THEN $3::uuid ELSE md5('growth-schedule-' || s)::uuid END AS schedule_id,
                   CASE WHEN s < ${SCHEDULES_PER_ORG} THEN $4::uuid ELSE md5('growth-org-' || s / ${SCHEDULES_PER_ORG})::uuid END AS org
           FROM generate_series($1::int / ${PER_SCHEDULE}, $2::int / ${PER_SCHEDULE} - 1) AS s
       ), seeded AS (
         INSERT INTO bookings.bookings (id, organization_id, schedule_id, start_time, end_time, status, timezone,
                                        attendee_name, attendee_email, created_at, updated_at)
         SELECT gen_random_uuid(), org, schedule_id, at, at + interval '30 minutes',
                (ARRAY['CONFIRMED', 'COMPLETED', 'COMPLETED', 'CANCELLED'])[1 + k % 4], 'UTC',
                'Guest ' || g, 'guest' || g || '@example.com', at - interval '7 days', at
           FROM schedules, generate_series(0, ${PER_SCHEDULE - 1}) AS k,
                LATERAL (SELECT s * ${PER_SCHEDULE} + k AS g,
                                date_trunc('day', now()) - interval '400 days' + k * interval '35 minutes' AS at) AS b
         RETURNING id, schedule_id, status, start_time, end_time
       )
       INSERT INTO scheduling.booking_intervals (booking_id, schedule_id, status, start_time, end_time, version)
       SELECT id, schedule_id, status, start_time, end_time, 1 FROM seeded`,
      [from, to, scheduleId, ctx.organizationId],
    ),
  );
}

/** Waits until the scheduling projection holds every booking created so far: seeding drops its primary key. */
async function projectionCaughtUp(ctx, scheduleId) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const [{ missing }] = await ctx.sql(
      `SELECT count(*)::int AS missing FROM bookings.bookings b
        WHERE b.schedule_id = $1::uuid AND NOT EXISTS (SELECT 1 FROM scheduling.booking_intervals i WHERE i.booking_id = b.id)`,
      [scheduleId],
    );
    if (missing === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the scheduling projection did not catch up with the bookings created');
}
