import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { analyzeTables, type RunningService } from '@app/service-testing';
import type { Config } from '../src/config.js';
import { startBookings } from './support/harness.js';

/**
 * The list's filters are served by indexes, not by scanning the table: with many organizations'
 * bookings in the table, the plan of each filtered page query must not contain a sequential scan.
 * The SQL mirrors what the list sends (organization first, sorted by start_time, a page of 50).
 */
describe('GET /api/v1/bookings query plans', () => {
  let running: RunningService<Config>;
  const organizationId = randomUUID();
  const scheduleId = randomUUID();
  const eventTypeId = randomUUID();

  beforeAll(async () => {
    running = await startBookings({ NATS_PREFIX: `${inject('natsPrefix')}_plans` });
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
    await analyzeTables(running, ['bookings.bookings']);
  });
  afterAll(() => running.stop());

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
});
