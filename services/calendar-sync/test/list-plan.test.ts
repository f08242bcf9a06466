import { describe, expect, it, beforeAll } from 'vitest';
import { analyzeTables, expectIndexedListReads } from '@app/service-testing';
import { calendarSyncSuite, newOrganization } from './support/harness.js';

const suite = calendarSyncSuite();

/**
 * A large organization among many: its connections changed since an instant (three of 1,000) are found through
 * calendar_connections_org_updated_idx, and a later page by cursor enters calendar_connections_org_idx at the cursor.
 * The plans are of the very statement the list sends. The rows are never due, so no sync touches them.
 */
describe('GET /api/v1/calendar-connections query plans', () => {
  const org = newOrganization();

  beforeAll(async () => {
    const { pool } = suite.running.infra;
    await pool.query(
      `INSERT INTO calendar_connections (id, organization_id, provider, schedule_id, calendar_ids, time_zone, token_key_id,
                                         access_token_cipher, refresh_token_cipher, token_expires_at, next_sync_at, created_at, updated_at)
       SELECT gen_random_uuid(), CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text || $1)::uuid END, 'google', gen_random_uuid(),
              ARRAY['primary'], 'UTC', 'k1', '\\x00', '\\x00', now(), NULL,
              now() - interval '60 days' + make_interval(secs => g), now() - interval '30 days'
         FROM generate_series(0, 150) o, generate_series(1, CASE WHEN o = 0 THEN 1000 ELSE 40 END) g`,
      [org.id],
    );
    await pool.query(
      `UPDATE calendar_connections SET updated_at = now()
        WHERE id IN (SELECT id FROM calendar_connections WHERE organization_id = $1::uuid LIMIT 3)`,
      [org.id],
    );
    await analyzeTables(suite.running, ['calendar_sync.calendar_connections']);
  });

  const list = async (query: string) => {
    const response = await suite.running.app.inject({ url: `/api/v1/calendar-connections?${query}`, headers: org.headers });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: unknown[]; meta: { next_cursor: string | null } }>();
  };

  it.each([
    ['no filter', ''],
    ['provider', '&provider=google'],
  ])('when the list is read with updated_since or by cursor (%s), then an index serves it', async (_case, filter) => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    await expectIndexedListReads({
      pool: suite.running.infra.pool,
      statement: /FROM calendar_connections t/,
      list,
      since,
      filter,
      index: 'calendar_connections_org_updated_idx',
      keyset: 'ROW(created_at, id) > ROW(',
    });
  });
});
