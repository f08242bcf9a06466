import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, expectIndexedListReads, startTestService } from '@app/service-testing';
import { configSchema } from '../src/config.js';
import { service } from '../src/service.js';
import { client, type Client, type Running } from './support/harness.js';

/**
 * A large organization among many: the events and event types it changed since an instant, and the registrations of
 * its large event (three of 1,000 each), are found through their updated_at indexes, and a later page by cursor
 * enters the list's order index at the cursor. The plans are of the very statements the lists send.
 */
describe('GET /api/v1/events, /api/v1/event-types and registrations query plans', () => {
  let running: Running;
  let api: Client;
  const eventId = randomUUID();
  // A database of its own: the plans follow the statistics of every row of the table, other files' included.
  const database = FileDatabase.create();

  beforeAll(async () => {
    running = await startTestService(service, configSchema, { DATABASE_URL: database.url });
    api = client(running);
    const { pool } = running.infra;
    const owner = `CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text || $1)::uuid END`;
    const sizes = `generate_series(0, 150) o, generate_series(1, CASE WHEN o = 0 THEN 1000 ELSE 40 END) g`;
    const monthAgo = `now() - interval '30 days'`;
    await pool.query(
      `INSERT INTO events (id, organization_id, title, start_date, timezone, starts_at, status, updated_at)
       SELECT CASE WHEN o = 0 AND g = 1 THEN $2::uuid ELSE gen_random_uuid() END, ${owner}, 'Event ' || g, date '2020-01-01' + g, 'UTC',
              timestamptz '2020-01-01T10:00:00Z' + make_interval(days => g), 'published', ${monthAgo}
         FROM ${sizes}`,
      [api.organizationId, eventId],
    );
    await pool.query(
      `INSERT INTO event_types (id, organization_id, title, slug, duration, created_at, updated_at)
       SELECT gen_random_uuid(), ${owner}, 'Type ' || g, 'type-' || g, 30, now() - interval '60 days' + make_interval(secs => g), ${monthAgo}
         FROM ${sizes}`,
      [api.organizationId],
    );
    // The organization's events are all past (2020–2022). Its first has 1,000 registrations, the others' first events a few.
    await pool.query(
      `INSERT INTO registrations (id, organization_id, event_id, name, email, quantity, created_at, updated_at)
       SELECT gen_random_uuid(), e.organization_id, e.id, 'Guest', 'guest' || g || '@example.com', 1,
              now() - interval '60 days' + make_interval(secs => g), now() - interval '30 days'
         FROM events e, generate_series(1, CASE WHEN e.id = $1::uuid THEN 1000 ELSE 2 END) g
        WHERE e.organization_id = $2::uuid OR e.title = 'Event 1'`,
      [eventId, api.organizationId],
    );
    // Everything was last changed a month ago (inserted so), but three of each list.
    for (const [table, scope, key] of [
      ['events', 'organization_id', api.organizationId],
      ['event_types', 'organization_id', api.organizationId],
      ['registrations', 'event_id', eventId],
    ] as const) {
      await pool.query(`UPDATE ${table} SET updated_at = now() WHERE id IN (SELECT id FROM ${table} WHERE ${scope} = $1::uuid LIMIT 3)`, [
        key,
      ]);
    }
    await analyzeTables(running, ['events.events', 'events.event_types', 'events.registrations']);
  });
  afterAll(async () => {
    await running.stop();
    await database.drop();
  });

  const lister = (path: string) => async (query: string) => {
    const reply = await api.get(`${path}${path.includes('?') ? '&' : '?'}${query}`);
    expect(reply.status).toBe(200);
    return reply.body as { data: unknown[]; meta: { next_cursor: string | null } };
  };

  it.each([
    ['events', '/api/v1/events', /FROM events e/, 'events_org_updated_idx', 'ROW(starts_at, id) > ROW(', ''],
    ['events by status', '/api/v1/events', /FROM events e/, 'events_org_updated_idx', 'ROW(starts_at, id) > ROW(', '&status=published'],
    ['past events', '/api/v1/events?past=true', /FROM events e/, 'events_org_updated_idx', 'ROW(starts_at, id) < ROW(', ''],
    ['event types', '/api/v1/event-types', /FROM event_types t/, 'event_types_org_updated_idx', 'ROW(created_at, id) > ROW(', ''],
    [
      'registrations',
      `/api/v1/events/${eventId}/registrations`,
      /FROM registrations t/,
      'registrations_event_updated_idx',
      'ROW(created_at, id) > ROW(',
      '',
    ],
  ])(
    'when the %s are read with updated_since or by cursor, then an index serves them',
    async (_case, path, statement, index, keyset, filter) => {
      const list = lister(path);
      const since = new Date(Date.now() - 3_600_000).toISOString();
      await expectIndexedListReads({ pool: running.infra.pool, statement, list, since, filter, index, keyset });
    },
  );
});
