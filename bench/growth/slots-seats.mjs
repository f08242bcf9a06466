const RANGE_DAYS = 62; // the longest range the slots endpoint serves: every seeded row is in it
const SEATS = 50;
const OPEN_MINUTES = 8 * 60; // 09:00–17:00 UTC, the schedule's default hours

/**
 * Slots over the longest range for a schedule of 50 seats per slot, open Mon–Fri 09:00–17:00 UTC in 60-minute
 * slots, holding `size` bookings of 1 or 2 seats laid inside the open hours, overlapping in staggered half hours.
 * At the largest size about 15 of a slot's 50 seats are taken at its busiest instant, so every size still offers the same slots: the
 * curve is the cost of the seat sums (the most seats taken at any instant of each slot), not of writing fewer slots.
 */
export default {
  name: 'slots of a 50-seat schedule vs. bookings',
  x_label: 'bookings (of 1–2 seats) in the 62-day range',
  sizes: [100, 1_000, 10_000],
  async seed(ctx, size) {
    const created = await ctx.api('POST', '/api/v1/schedules', {
      name: `Growth seats ${size}`,
      timezone: 'UTC',
      slot_duration: 60,
      seats_per_slot: SEATS,
    });
    if (created.status !== 201) throw new Error(`schedule not created: ${created.status} ${JSON.stringify(created.body)}`);
    const scheduleId = created.body.data.id;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const endDate = new Date(Date.parse(tomorrow) + RANGE_DAYS * 86_400_000).toISOString().slice(0, 10);
    // Row i: day i % 63 at 09:00, then half hour (i / 63) % 16 of the open hours, 30 minutes long; weekend days hold
    // rows too (no slot reads them, as a real schedule's history would not be read either).
    await ctx.sql(
      `INSERT INTO scheduling.booking_intervals (booking_id, schedule_id, status, start_time, end_time, version, seats)
       SELECT gen_random_uuid(), $1::uuid, CASE WHEN i % 2 = 0 THEN 'PENDING' ELSE 'CONFIRMED' END,
              at, at + interval '30 minutes', 1, 1 + i % 2
       FROM generate_series(0, $3::int - 1) AS i,
       LATERAL (SELECT $2::timestamptz + (i % ${RANGE_DAYS + 1}) * interval '1 day' + interval '9 hours'
                       + ((i / ${RANGE_DAYS + 1}) % ${OPEN_MINUTES / 30}) * interval '30 minutes' AS at) AS p`,
      [scheduleId, `${tomorrow}T00:00:00Z`, size],
    );
    await ctx.sql('VACUUM (ANALYZE) scheduling.booking_intervals');
    return { path: `/api/bookings/slots?scheduleId=${scheduleId}&startDate=${tomorrow}&endDate=${endDate}` };
  },
  requests: (state) => [{ method: 'GET', path: state.path }],
};
