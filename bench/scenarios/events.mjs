// Benchmarks of the events service, run through the gateway by `npm run bench`.

const EVENTS = 10_000;
const REGISTRATIONS_PER_EVENT = 5; // 50,000 registrations in all

/**
 * `events` published events of the organization over ten years, each with `registrations` active registrations of one
 * place, straight into schema `events` (the service has migrated it by the time the stack is up).
 */
export async function seedEvents(ctx, organizationId, events, registrations) {
  await ctx.sql(
    `INSERT INTO events.events (id, organization_id, title, start_date, start_time, end_time, timezone,
                                starts_at, ends_at, cost_cents, slots, status)
     SELECT gen_random_uuid(), $1::uuid, 'Bench event ' || g, day, '18:00', '20:00', 'UTC',
            (day + time '18:00') AT TIME ZONE 'UTC', (day + time '20:00') AT TIME ZONE 'UTC', 1500, 10, 'published'
       FROM generate_series(1, $2::int) AS g,
            LATERAL (SELECT date '2030-01-01' + (g % 3650) AS day) AS d`,
    [organizationId, events],
  );
  await ctx.sql(
    `INSERT INTO events.registrations (id, organization_id, event_id, name, email, quantity)
     SELECT gen_random_uuid(), e.organization_id, e.id, 'Guest ' || n, 'guest' || n || '@example.com', 1
       FROM events.events AS e, generate_series(1, $2::int) AS n
      WHERE e.organization_id = $1::uuid`,
    [organizationId, registrations],
  );
  // Statistics and the visibility map as autovacuum leaves a settled table, so the planner and the
  // index-only scans (places taken per event) work as they would in production.
  await ctx.sql('VACUUM (ANALYZE) events.events, events.registrations');
}

export default [
  {
    name: 'events: list 50 with include_counts (10k events, 50k registrations)',
    goal: '>= 1500 req/s',
    ceiling: true,
    /**
     * Seeds straight into schema `events` (the service has migrated it by the time the stack is up):
     * 10,000 published events over ten years, each with 5 active registrations of one place.
     */
    async seed(ctx) {
      const [{ count }] = await ctx.sql('SELECT count(*)::int AS count FROM events.events WHERE organization_id = $1::uuid', [
        ctx.organizationId,
      ]);
      if (count < EVENTS) {
        await seedEvents(ctx, ctx.organizationId, EVENTS, REGISTRATIONS_PER_EVENT);
      }
      return {};
    },
    requests() {
      return [{ method: 'GET', path: '/api/v1/events?limit=50&include_counts=true' }];
    },
  },
];
