import { createOrganization } from '../lib/target.mjs';

const REGISTRATIONS_PER_EVENT = 2;

/**
 * GET /api/v1/events?limit=50&include_counts=true (the events scenario's request) for an organization of
 * `size` published events, each with 2 active registrations. Each size is an organization of its own, so the
 * larger ones list among the smaller ones' rows too.
 */
export default {
  name: 'events list vs. events per organization',
  x_label: 'events of the organization',
  sizes: [100, 1_000, 10_000, 100_000],
  async seed(ctx, size) {
    const organization = await createOrganization(ctx.baseUrl, `Growth events ${size}`);
    await ctx.sql(
      `INSERT INTO events.events (id, organization_id, title, start_date, start_time, end_time, timezone,
                                  starts_at, ends_at, cost_cents, slots, status)
       SELECT gen_random_uuid(), $1::uuid, 'Growth event ' || g, day, '18:00', '20:00', 'UTC',
              (day + time '18:00') AT TIME ZONE 'UTC', (day + time '20:00') AT TIME ZONE 'UTC', 1500, 10, 'published'
         FROM generate_series(1, $2::int) AS g,
              LATERAL (SELECT date '2030-01-01' + (g % 3650) AS day) AS d`,
      [organization.id, size],
    );
    await ctx.sql(
      `INSERT INTO events.registrations (id, organization_id, event_id, name, email, quantity)
       SELECT gen_random_uuid(), e.organization_id, e.id, 'Guest ' || n, 'guest' || n || '@example.com', 1
         FROM events.events AS e, generate_series(1, $2::int) AS n
        WHERE e.organization_id = $1::uuid`,
      [organization.id, REGISTRATIONS_PER_EVENT],
    );
    await ctx.sql('VACUUM (ANALYZE) events.events, events.registrations');
    return { headers: organization.headers };
  },
  requests: () => [{ method: 'GET', path: '/api/v1/events?limit=50&include_counts=true' }],
};
