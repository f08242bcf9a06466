import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, expectIndexedListReads, organizationHeaders } from '@app/service-testing';
import { startScheduling, type Running } from './support/harness.js';

/**
 * A large organization among many: its schedules changed since an instant (three of 3,000) are found through
 * schedules_org_updated_idx, and a later page by cursor enters schedules_organization_idx at the cursor, never
 * reading the organization's schedules before it. The plans are of the very statement the list sends.
 */
describe('GET /api/v1/schedules query plans', () => {
  let running: Running;
  const organizationId = randomUUID();
  // A database of its own: the plans follow the statistics of every row of the table, other files' included.
  const database = FileDatabase.create();

  beforeAll(async () => {
    running = await startScheduling(() => new Date(), { DATABASE_URL: database.url });
    await running.infra.pool.query(
      `INSERT INTO schedules (organization_id, name, timezone, slot_duration, availability, created_at, updated_at)
       SELECT CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text || $1)::uuid END, 'Schedule ' || s, 'UTC', 30, '[]',
              now() - interval '60 days' + make_interval(secs => s), now() - interval '30 days'
         FROM generate_series(0, 99) o, generate_series(1, CASE WHEN o = 0 THEN 3000 ELSE 50 END) s`,
      [organizationId],
    );
    await running.infra.pool.query(
      `UPDATE schedules SET updated_at = now() WHERE id IN (SELECT id FROM schedules WHERE organization_id = $1::uuid LIMIT 3)`,
      [organizationId],
    );
    await analyzeTables(running, ['scheduling.schedules']);
  });
  afterAll(async () => {
    await running.stop();
    await database.drop();
  });

  const list = async (query: string) => {
    const response = await running.app.inject({ url: `/api/v1/schedules?${query}`, headers: organizationHeaders(organizationId) });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: unknown[]; meta: { next_cursor: string | null } }>();
  };

  it.each([
    ['no filter', ''],
    ['active', '&active=true'],
  ])('when the list is read with updated_since or by cursor (%s), then an index serves it', async (_case, filter) => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    await expectIndexedListReads({
      pool: running.infra.pool,
      statement: /FROM schedules t/,
      list,
      since,
      filter,
      index: 'schedules_org_updated_idx',
      keyset: 'ROW(created_at, id) > ROW(',
    });
  });
});
