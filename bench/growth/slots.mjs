import { randomUUID } from 'node:crypto';

const RANGE_DAYS = 62; // the longest range the slots endpoint serves: every seeded row is in it
const NIGHT_MINUTES = 14 * 60; // 18:00–08:00 UTC, outside the open hours

/**
 * Slots over the longest range (63 dates) for a schedule open Mon–Fri 09:00–17:00 UTC in 60-minute slots,
 * holding `size` bookings (the scheduling projection) and `size` calendar busy windows. Both are laid in the
 * nights, interleaved and disjoint, so every size answers the same slots: the curve is the cost of reading
 * and sweeping the busy time, not of writing fewer slots.
 */
export default {
  name: 'slots vs. bookings and busy windows',
  x_label: 'bookings and busy windows (each) in the 62-day range',
  sizes: [100, 1_000, 10_000],
  async seed(ctx, size) {
    const created = await ctx.api('POST', '/api/v1/schedules', {
      name: `Growth slots ${size}`,
      timezone: 'UTC',
      slot_duration: 60,
    });
    if (created.status !== 201) throw new Error(`schedule not created: ${created.status} ${JSON.stringify(created.body)}`);
    const scheduleId = created.body.data.id;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const endDate = new Date(Date.parse(tomorrow) + RANGE_DAYS * 86_400_000).toISOString().slice(0, 10);
    const connectionId = randomUUID();
    await ctx.sql(
      `INSERT INTO scheduling.calendar_connections (connection_id, schedule_id, last_synced_at) VALUES ($1::uuid, $2::uuid, now())`,
      [connectionId, scheduleId],
    );
    // Row i: night i % 63, place i / 63 of `perNight` in it; a booking in the first half of its place, a window in the second.
    const placed = `FROM generate_series(0, $3::int - 1) AS i,
      LATERAL (SELECT $2::timestamptz + (i % ${RANGE_DAYS + 1}) * interval '1 day' + interval '18 hours'
                      + (i / ${RANGE_DAYS + 1}) * $4::float8 * interval '1 second' AS at) AS p`;
    const place = (NIGHT_MINUTES * 60) / Math.ceil(size / (RANGE_DAYS + 1));
    const params = [scheduleId, `${tomorrow}T00:00:00Z`, size, place];
    await ctx.sql(
      `INSERT INTO scheduling.booking_intervals (booking_id, schedule_id, status, start_time, end_time, version)
       SELECT gen_random_uuid(), $1::uuid, CASE WHEN i % 2 = 0 THEN 'PENDING' ELSE 'CONFIRMED' END,
              at, at + $4::float8 / 2 * interval '1 second', 1 ${placed}`,
      params,
    );
    await ctx.sql(
      `INSERT INTO scheduling.busy_windows (connection_id, schedule_id, start_time, end_time)
       SELECT $5::uuid, $1::uuid, at + $4::float8 / 2 * interval '1 second', at + $4::float8 * interval '1 second' ${placed}`,
      [...params, connectionId],
    );
    await ctx.sql('VACUUM (ANALYZE) scheduling.booking_intervals, scheduling.busy_windows');
    return { path: `/api/bookings/slots?scheduleId=${scheduleId}&startDate=${tomorrow}&endDate=${endDate}` };
  },
  requests: (state) => [{ method: 'GET', path: state.path }],
};
