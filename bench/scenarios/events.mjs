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

/** Tickets of the check-in scenario's event: more than a 10 s run scans here (its non2xx would show a wrap-around). */
const SCAN_TICKETS = 20_000;
const SCANNERS = 50;

/**
 * One published event with `tickets` registrations of one place, straight into schema `events` (Postgres draws each
 * ticket code, the column's default): the event's id and its codes, in random order.
 */
async function seedTickets(ctx, tickets) {
  const reply = await ctx.api('POST', '/api/v1/events', {
    title: 'Bench: doors open',
    start_date: '2031-06-01',
    start_time: '18:00',
    end_time: '23:00',
    status: 'published',
  });
  if (reply.status !== 201) throw new Error(`could not create the check-in event: ${reply.status} ${JSON.stringify(reply.body)}`);
  const eventId = reply.body.data.id;
  const rows = await ctx.sql(
    `INSERT INTO events.registrations (id, organization_id, event_id, name, email, quantity)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, 'Guest ' || n, 'guest' || n || '@example.com', 1
       FROM generate_series(1, $3::int) AS n
     RETURNING ticket_code`,
    [ctx.organizationId, eventId, tickets],
  );
  await ctx.sql('VACUUM (ANALYZE) events.registrations');
  return { eventId, codes: rows.map((row) => row.ticket_code).sort(() => Math.random() - 0.5) };
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
  {
    name: `events: check-in scans of unique codes at one event (${SCANNERS} scanners, ${SCAN_TICKETS / 1000}k tickets)`,
    goal: 'p99 < 50 ms; every code admitted once',
    // A write (registration row + outbox), as booking creation: twice the reads' 25 ms at the steady rate.
    steadyP99GoalMs: 50,
    options: { connections: SCANNERS },
    async seed(ctx) {
      return seedTickets(ctx, SCAN_TICKETS);
    },
    requests(state) {
      let n = 0;
      return [
        {
          method: 'POST',
          path: `/api/v1/events/${state.eventId}/check-ins`,
          headers: { 'content-type': 'application/json' },
          // Each request scans the next code: 50 scanners at one event, never the same ticket twice.
          setupRequest(request) {
            const code = state.codes[n % state.codes.length];
            n += 1;
            return { ...request, body: JSON.stringify({ ticket_code: code }) };
          },
        },
      ];
    },
    async verify(state, ctx) {
      const [{ checked }] = await ctx.sql(
        'SELECT count(*)::int AS checked FROM events.registrations WHERE event_id = $1::uuid AND checked_in_at IS NOT NULL',
        [state.eventId],
      );
      return `${checked} of ${state.codes.length} tickets checked in`;
    },
  },
];
