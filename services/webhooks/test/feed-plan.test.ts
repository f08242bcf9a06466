import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATS_TOPOLOGY } from '@app/contracts';
import { analyzeTables, FileDatabase } from '@app/service-testing';
import { changes } from './support/feed.js';
import { client, startWebhooks, type Client, type Running } from './support/harness.js';

/**
 * A page of the feed is one range of the organization's position index, read in its order and cut at the page: its
 * cost does not grow with the items after it, so walking 100,000 changes costs 500 pages of the same price. (The first
 * version ordered by the text of the id, its output column, which the index cannot give: a sort on every page, and on
 * statistics that lagged the table's growth a bitmap scan of every remaining item of the organization before it, 117 ms
 * a page at 100,000.) A database of its own, for the statistics, and one connection, so the plan read is the session's.
 */
describe('GET /api/v1/changes plan', () => {
  const ITEMS = 20_000;
  const database = FileDatabase.create();
  let running: Running;
  let api: Client;

  beforeAll(async () => {
    running = await startWebhooks({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '1' });
    const organizationId = randomUUID();
    api = client(running, organizationId);
    const pool = running.infra.pool;
    // One large organization and many small ones; every stream's watermark past all of them.
    await pool.query(
      `INSERT INTO feed_items (id, organization_id, position_tx, position_seq, type, occurred_at, data)
       SELECT gen_random_uuid(), CASE WHEN g % 10 = 0 THEN gen_random_uuid() ELSE $1::uuid END, 1000 + g / 3, g,
              'booking.created', now(), json_build_object('id', gen_random_uuid())
         FROM generate_series(1, $2::int) AS g`,
      [organizationId, ITEMS],
    );
    const streams = Object.values(NATS_TOPOLOGY.webhooks.reads).map((reader) => running.infra.bus.streamName(reader.stream.name));
    await pool.query(
      `INSERT INTO feed_streams (stream, watermark) SELECT unnest($1::text[]), 1000000
       ON CONFLICT (stream) DO UPDATE SET watermark = 1000000`,
      [streams],
    );
    await analyzeTables(running, ['webhooks.feed_items']);
  });
  afterAll(async () => {
    await running?.stop();
    await database.drop();
  });

  it('when the feed is walked, then each page is an index scan in position order, without a sort, whatever follows it', async () => {
    let after: string | undefined;
    let seen = 0;
    for (let page = 0; page < 8; page += 1) {
      const next = await changes(api, { after, limit: 200 });
      expect(next.status).toBe(200);
      seen += next.items.length;
      after = next.meta.next_cursor ?? undefined;
    }
    expect(seen).toBe(1600);

    const { rows } = await running.infra.pool.query<{ name: string; parameter_types: string[] }>(
      `SELECT name, parameter_types::text[] FROM pg_prepared_statements WHERE statement LIKE '%FROM feed_items%ORDER BY position_tx%'`,
    );
    const statements = rows.filter((row) => row.parameter_types.length === 6);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    // The plan Postgres would use now for a page in the middle (the same session: the pool's connections are its own).
    const [statement] = statements;
    const organizationId = api.organizationId;
    const streams = Object.values(NATS_TOPOLOGY.webhooks.reads).map((reader) => running.infra.bus.streamName(reader.stream.name));
    // EXPLAIN takes no parameters: the values are written in (all of them made here).
    const values = [
      `ARRAY[${streams.map((name) => `'${name}'`).join(',')}]`,
      `'${organizationId}'`,
      '2000',
      '3000',
      `'${randomUUID()}'`,
      'NULL',
    ];
    const { rows: plan } = await running.infra.pool.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) EXECUTE ${statement?.name ?? 'none'}(${values.join(', ')})`,
    );
    const text = JSON.stringify(plan[0]?.['QUERY PLAN']);
    expect(text).toContain('feed_items_position_idx');
    expect(text).not.toMatch(/"Node Type":"(Incremental )?Sort"/);
    expect(text).not.toMatch(/"Bitmap Heap Scan"[^}]*"Relation Name":"feed_items"/);
  });
});
