import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { analyzeTables, FileDatabase, organizationHeaders, statementPlans, type RunningService } from '@app/service-testing';
import type { Config } from '../src/config.js';
import { startBookings } from './support/harness.js';

/**
 * The list's filters are served by indexes, not by scanning the table: with many organizations'
 * bookings in the table, the plan of each filtered page query must not contain a sequential scan.
 * The SQL of the filter cases mirrors what the list sends (organization first, sorted by start_time, a page of 50);
 * the updated_since and cursor cases explain the very statement the list sent (`statementPlans`).
 */
describe('GET /api/v1/bookings query plans', () => {
  let running: RunningService<Config>;
  const organizationId = randomUUID();
  const scheduleId = randomUUID();
  const eventTypeId = randomUUID();
  // A database of its own: the plans follow the statistics of every row of the table, other files' included.
  const database = FileDatabase.create();

  beforeAll(async () => {
    running = await startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_plans`, DATABASE_URL: database.url });
    // 200 organizations × 100 bookings, each on a schedule of its own (no overlap to guard).
    await running.infra.pool.query(
      `INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, status, attendee_name, attendee_email)
       SELECT gen_random_uuid(), CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text)::uuid END,
              CASE WHEN o = 0 AND b % 2 = 0 THEN $2::uuid ELSE gen_random_uuid() END,
              CASE WHEN b % 5 = 0 THEN $3::uuid END,
              now() + make_interval(hours => b), now() + make_interval(hours => b, mins => 30),
              (ARRAY['PENDING','CONFIRMED','CANCELLED','COMPLETED','NO_SHOW'])[1 + b % 5], 'A', 'user' || b || '@example.com'
         FROM generate_series(0, 199) o, generate_series(1, 100) b`,
      [organizationId, scheduleId, eventTypeId],
    );
    // The organization grows to 5,100 bookings, all unchanged for a month but three: updated_since must find those
    // three through an index, not by reading the organization's bookings.
    await running.infra.pool.query(
      `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, status, attendee_name, attendee_email, updated_at)
       SELECT gen_random_uuid(), $1::uuid, gen_random_uuid(), now() + make_interval(mins => b), now() + make_interval(mins => b + 30),
              'PENDING', 'B', 'bulk' || b || '@example.com', now() - interval '30 days'
         FROM generate_series(1, 5000) b`,
      [organizationId],
    );
    await running.infra.pool.query(
      `UPDATE bookings SET updated_at = CASE WHEN id IN (SELECT id FROM bookings WHERE organization_id = $1::uuid LIMIT 3)
                                             THEN now() ELSE now() - interval '30 days' END
        WHERE organization_id = $1::uuid`,
      [organizationId],
    );
    // Half the bookings have their provider event (write-back), some in two connections: each page reads its
    // bookings' through the primary key, never by scanning the table.
    await running.infra.pool.query(
      `INSERT INTO booking_calendar_events (booking_id, connection_id, provider, event_id, status, last_error, version)
       SELECT b.id, c.id, 'google', 'evt-' || b.id, 'synced', NULL, 1
         FROM (SELECT id, row_number() OVER () AS n FROM bookings) b,
              LATERAL (SELECT gen_random_uuid() AS id FROM generate_series(1, CASE WHEN b.n % 10 = 0 THEN 2 ELSE 1 END)) c
        WHERE b.n % 2 = 0`,
    );
    await analyzeTables(running, ['bookings.bookings', 'bookings.booking_calendar_events']);
  });
  afterAll(async () => {
    await running.stop();
    await database.drop();
  });

  it.each([
    ['no filter', ''],
    ['schedule_id', 'AND schedule_id = $2::uuid'],
    ['event_type_id', 'AND event_type_id = $3::uuid'],
    ['status', `AND status = 'CONFIRMED'`],
    ['start_date/end_date', `AND start_time >= now() + interval '1 day' AND start_time < now() + interval '3 days'`],
    ['upcoming', 'AND start_time >= now()'],
    ['attendee_email', `AND attendee_email ILIKE '%user1%'`],
  ])('when filtering by %s, then the page query uses an index', async (_case, condition) => {
    const { rows } = await running.infra.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT * FROM bookings WHERE organization_id = $1::uuid ${condition}
        AND $2::uuid IS NOT NULL AND $3::uuid IS NOT NULL ORDER BY start_time, id LIMIT 50`,
      [organizationId, scheduleId, eventTypeId],
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/Index|Bitmap/);
  });

  const list = async (query: string) => {
    const reply = await running.app.inject({
      method: 'GET',
      url: `/api/v1/bookings?${query}`,
      headers: organizationHeaders(organizationId),
    });
    expect(reply.statusCode).toBe(200);
    return reply.json<{ data: unknown[]; meta: { next_cursor: string | null } }>();
  };
  const planOf = async (query: string) => {
    const plans = await statementPlans(running.infra.pool, /FROM bookings t/, () => list(query));
    expect(plans).toHaveLength(1);
    return plans[0]?.plan ?? '';
  };

  it('when the list is read with updated_since, then the organization’s recent changes come from bookings_org_updated_idx', async () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect((await list(`updated_since=${since}`)).data).toHaveLength(3);
    const plan = await planOf(`updated_since=${since}`);
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/bookings_org_updated_idx/);
    expect(plan).toMatch(/booking_calendar_events_pkey/);
  });

  it.each([
    ['no filter', ''],
    ['status', '&status=PENDING'],
    ['schedule_id', `&schedule_id=${scheduleId}`],
  ])('when a later page is read by cursor with %s, then it is entered in the index at the cursor', async (_case, filter) => {
    const first = await list(`limit=20${filter}`);
    const cursor = encodeURIComponent(first.meta.next_cursor ?? '');
    const plan = await planOf(`limit=20&cursor=${cursor}${filter}`);
    expect(plan).not.toMatch(/Seq Scan/);
    expect(plan).toMatch(/Index Cond: .*\(ROW\(start_time, id\) > ROW\(/s);
    expect(plan).toMatch(/booking_calendar_events_pkey/);
  });
});
