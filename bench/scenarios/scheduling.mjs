import { randomUUID } from 'node:crypto';

/**
 * Slot generation through the gateway: a schedule (Mon–Fri 09:00–17:00 UTC, 30-minute slots) with 200
 * calendar busy windows and 50 bookings over the next two weeks, asked for its default 14-day range
 * (15 dates). The busy time is seeded straight into the scheduling projections.
 */
export default [
  {
    name: 'scheduling: 14-day slots, 200 busy windows + 50 bookings',
    goal: '>= 3000 req/s',
    ceiling: true,
    async seed(ctx) {
      const created = await ctx.api('POST', '/api/v1/schedules', { name: 'Bench consulting', timezone: 'UTC', buffer_after: 10 });
      if (created.status !== 201) throw new Error(`schedule not created: ${created.status} ${JSON.stringify(created.body)}`);
      const scheduleId = created.body.data.id;
      const startDate = new Date().toISOString().slice(0, 10);
      const from = `${startDate}T00:00:00Z`;
      const connectionId = randomUUID();

      await ctx.sql(
        `INSERT INTO scheduling.calendar_connections (connection_id, schedule_id, last_synced_at) VALUES ($1::uuid, $2::uuid, now())`,
        [connectionId, scheduleId],
      );
      // 200 windows of 30 minutes, one every 100 minutes: spread over the 14 days.
      await ctx.sql(
        `INSERT INTO scheduling.busy_windows (connection_id, schedule_id, start_time, end_time)
         SELECT $1::uuid, $2::uuid, $3::timestamptz + i * interval '100 minutes', $3::timestamptz + i * interval '100 minutes' + interval '30 minutes'
           FROM generate_series(0, 199) AS i`,
        [connectionId, scheduleId, from],
      );
      // 50 one-hour bookings, one every 403 minutes, half PENDING and half CONFIRMED.
      await ctx.sql(
        `INSERT INTO scheduling.booking_intervals (booking_id, schedule_id, status, start_time, end_time, version)
         SELECT gen_random_uuid(), $1::uuid, CASE WHEN i % 2 = 0 THEN 'PENDING' ELSE 'CONFIRMED' END,
                $2::timestamptz + i * interval '403 minutes', $2::timestamptz + i * interval '403 minutes' + interval '1 hour', 1
           FROM generate_series(0, 49) AS i`,
        [scheduleId, from],
      );
      return { scheduleId, startDate };
    },
    requests(state) {
      return [{ method: 'GET', path: `/api/bookings/slots?scheduleId=${state.scheduleId}&startDate=${state.startDate}` }];
    },
  },
];
