import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, expectIndexedListReads } from '@app/service-testing';
import { client, startWebhooks, type Client, type Running } from './support/harness.js';

/**
 * A large organization among many: its endpoints changed since an instant (three of 1,000), and the deliveries of its
 * busiest endpoint (three of 1,000), are found through their updated_at indexes, and a later page by cursor enters the
 * list's order index at the cursor. The plans are of the very statements the lists send. The deliveries are settled
 * (succeeded, not due), so no worker touches them.
 */
describe('GET /api/v1/webhook-endpoints and deliveries query plans', () => {
  let running: Running;
  let api: Client;
  const endpointId = randomUUID();
  // A database of its own: the plans follow the statistics of every row of the table, other files' included.
  const database = FileDatabase.create();

  beforeAll(async () => {
    running = await startWebhooks({ DATABASE_URL: database.url });
    api = client(running);
    const { pool } = running.infra;
    const monthAgo = `now() - interval '30 days'`;
    await pool.query(
      `INSERT INTO webhook_endpoints (id, organization_id, url, events, secret, enabled, created_at, updated_at)
       SELECT CASE WHEN o = 0 AND g = 1 THEN $2::uuid ELSE gen_random_uuid() END,
              CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text || $1)::uuid END, 'https://hooks.example.com/in', ARRAY['media.deleted'],
              'whsec_x', false, now() - interval '60 days' + make_interval(secs => g), ${monthAgo}
         FROM generate_series(0, 150) o, generate_series(1, CASE WHEN o = 0 THEN 1000 ELSE 40 END) g`,
      [api.organizationId, endpointId],
    );
    await pool.query(
      `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, event_type, body, status, created_at, updated_at)
       SELECT gen_random_uuid(), e.organization_id, e.id, gen_random_uuid(), 'webhook.test', '{}', 'succeeded',
              now() - interval '60 days' + make_interval(secs => g), ${monthAgo}
         FROM webhook_endpoints e, generate_series(1, CASE WHEN e.id = $1::uuid THEN 1000 ELSE 3 END) g
        WHERE e.organization_id = $2::uuid OR e.url = 'https://hooks.example.com/in'`,
      [endpointId, api.organizationId],
    );
    for (const [table, scope, key] of [
      ['webhook_endpoints', 'organization_id', api.organizationId],
      ['webhook_deliveries', 'endpoint_id', endpointId],
    ] as const) {
      await pool.query(`UPDATE ${table} SET updated_at = now() WHERE id IN (SELECT id FROM ${table} WHERE ${scope} = $1::uuid LIMIT 3)`, [
        key,
      ]);
    }
    await analyzeTables(running, ['webhooks.webhook_endpoints', 'webhooks.webhook_deliveries']);
  });
  afterAll(async () => {
    await running.stop();
    await database.drop();
  });

  const lister = (path: string) => async (query: string) => {
    const reply = await api.get(`${path}?${query}`);
    expect(reply.status).toBe(200);
    return reply.body as { data: unknown[]; meta: { next_cursor: string | null } };
  };

  it.each([
    ['endpoints', '/api/v1/webhook-endpoints', /FROM webhook_endpoints t/, 'webhook_endpoints_org_updated_idx', '>', ''],
    [
      'deliveries',
      `/api/v1/webhook-endpoints/${endpointId}/deliveries`,
      /FROM webhook_deliveries t/,
      'webhook_deliveries_endpoint_updated_idx',
      '<',
      '',
    ],
    [
      'deliveries by status',
      `/api/v1/webhook-endpoints/${endpointId}/deliveries`,
      /FROM webhook_deliveries t/,
      'webhook_deliveries_endpoint_updated_idx',
      '<',
      '&status=succeeded',
    ],
  ])(
    'when the %s are read with updated_since or by cursor, then an index serves them',
    async (_case, path, statement, index, comparison, filter) => {
      const list = lister(path);
      const since = new Date(Date.now() - 3_600_000).toISOString();
      await expectIndexedListReads({
        pool: running.infra.pool,
        statement,
        list,
        since,
        filter,
        index,
        keyset: `ROW(created_at, id) ${comparison} ROW(`,
      });
    },
  );
});
