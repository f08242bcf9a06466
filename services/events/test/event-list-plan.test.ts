import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, preparedPlans, startTestService } from '@app/service-testing';
import { configSchema } from '../src/config.js';
import { service } from '../src/service.js';
import { client, list, type Client, type Running } from './support/harness.js';

/**
 * The list is the service's hottest read, and its named statement must be planned once per connection, not on
 * every call: with LIMIT and OFFSET as parameters Postgres priced the generic plan as if the page were a tenth of
 * the organization's events and planned every call again (`pageClause`). Postgres decides by the statistics, so the
 * test has a database of its own with one large organization (the bench's shape, where it was found), and one
 * connection, so it reads the very session the requests ran on.
 */
describe('GET /api/v1/events plan', () => {
  const EVENTS = 10_000;
  let running: Running;
  let api: Client;

  const database = FileDatabase.create();

  beforeAll(async () => {
    running = await startTestService(service, configSchema, { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '1' });
    const organizationId = randomUUID();
    api = client(running, organizationId);
    await running.infra.pool.query(
      `INSERT INTO events (id, organization_id, title, start_date, start_time, end_time, timezone, starts_at, ends_at, cost_cents, slots, status)
       SELECT gen_random_uuid(), $1::uuid, 'Event ' || g, day, '18:00', '20:00', 'UTC',
              (day + time '18:00') AT TIME ZONE 'UTC', (day + time '20:00') AT TIME ZONE 'UTC', 1500, 10, 'published'
         FROM generate_series(1, $2::int) AS g, LATERAL (SELECT date '2030-01-01' + g AS day) AS d`,
      [organizationId, EVENTS],
    );
    await analyzeTables(running, ['events.events']);
  });
  afterAll(async () => {
    await running.stop();
    await database.drop();
  });

  it('when the first page is listed again and again, then Postgres keeps one generic plan and stops planning', async () => {
    for (let call = 0; call < 12; call += 1) {
      const reply = await api.get('/api/v1/events?limit=50&include_counts=true');
      expect(reply.status).toBe(200);
      expect(list(reply)).toHaveLength(50);
      expect(reply.body.meta).toEqual({ total: EVENTS, limit: 50, offset: 0, hasMore: true, next_cursor: expect.any(String) });
    }
    // Postgres plans the first five calls for their values, then compares; the old statement stayed at 12 custom plans.
    const statements = await preparedPlans(running.infra.pool, '%WITH page AS%FROM events e%');
    expect(statements).toHaveLength(1);
    const [counts] = statements;
    expect(counts?.generic).toBeGreaterThanOrEqual(6);
    expect(counts?.custom).toBeLessThanOrEqual(6);
  });

  it('when a page size between the usual ones is asked for, then exactly that many come back, the same as a larger page begins with', async () => {
    const larger = await api.get('/api/v1/events?limit=50');
    const seven = await api.get('/api/v1/events?limit=7');
    const later = await api.get('/api/v1/events?limit=7&offset=3');
    const lastPage = await api.get('/api/v1/events?limit=199&offset=9900');

    const titles = (reply: typeof larger) => list(reply).map((event) => event.title);
    expect(titles(seven)).toEqual(titles(larger).slice(0, 7));
    expect(seven.body.meta).toEqual({ total: EVENTS, limit: 7, offset: 0, hasMore: true, next_cursor: expect.any(String) });
    expect(titles(later)).toEqual(titles(larger).slice(3, 10));
    expect(list(lastPage)).toHaveLength(100);
    expect(lastPage.body.meta).toEqual({ total: EVENTS, limit: 199, offset: 9900, hasMore: false, next_cursor: null });
  });
});
