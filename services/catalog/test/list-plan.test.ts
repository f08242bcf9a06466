import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, expectIndexedListReads } from '@app/service-testing';
import { Client, startCatalog } from './support/harness.js';

/**
 * A large shop among many: the products and media files it changed since an instant (three of 1,000 each, among 6,000 of other shops) are found
 * through the (organization, updated_at) indexes, and a later page by cursor enters the (organization, created_at
 * DESC, id DESC) index at the cursor. The plans are of the very statements the lists send.
 */
describe('GET /api/v1/products and /api/v1/media query plans', () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  let shop: Client;
  // A database of its own: the plans follow the statistics of every row of the table, other files' included.
  const database = FileDatabase.create();

  beforeAll(async () => {
    catalog = await startCatalog({ DATABASE_URL: database.url });
    shop = new Client(catalog.running);
    const { pool } = catalog.running.infra;
    const owner = `CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text || $1)::uuid END`;
    const sizes = `generate_series(0, 150) o, generate_series(1, CASE WHEN o = 0 THEN 1000 ELSE 40 END) g`;
    await pool.query(
      `INSERT INTO products (id, organization_id, name, slug, price_cents, status, created_at, updated_at)
       SELECT gen_random_uuid(), ${owner}, 'Product ' || g, 'plan-' || g, 100 + g, 'published',
              now() - interval '60 days' + make_interval(secs => g), now() - interval '30 days'
         FROM ${sizes}`,
      [shop.organizationId],
    );
    await pool.query(
      `INSERT INTO media_files (id, organization_id, token, storage_key, filename, public_name, mime_type, size, width, height, created_at, updated_at)
       SELECT gen_random_uuid(), ${owner}, md5(random()::text), 'key', 'f.png', 'f.png', 'image/png', 1, 1, 1,
              now() - interval '60 days' + make_interval(secs => g), now() - interval '30 days'
         FROM ${sizes}`,
      [shop.organizationId],
    );
    for (const table of ['products', 'media_files']) {
      // updated_at of three: the media files' trigger sets it to now() whatever the statement says.
      await pool.query(
        `UPDATE ${table} SET updated_at = now() WHERE id IN (SELECT id FROM ${table} WHERE organization_id = $1::uuid LIMIT 3)`,
        [shop.organizationId],
      );
    }
    await analyzeTables(catalog.running, ['catalog.products', 'catalog.media_files']);
  });
  afterAll(async () => {
    await catalog.stop();
    await database.drop();
  });

  const lister = (path: string) => async (query: string) => {
    const response = await shop.get(`${path}?${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<{ data: unknown[]; meta: { next_cursor: string | null } }>();
  };

  it.each([
    ['products', '/api/v1/products', 'products', 'products_org_updated_idx', ''],
    ['products by status', '/api/v1/products', 'products', 'products_org_updated_idx', '&status=published'],
    ['media files', '/api/v1/media', 'media_files', 'media_files_org_updated_idx', ''],
  ])('when the %s are read with updated_since or by cursor, then an index serves them', async (_case, path, table, index, filter) => {
    const statement = new RegExp(`FROM ${table} [pt]\\b`);
    // The list's own table; the products' featured media files may be joined by hash, read whole when few.
    const scanned = new RegExp(`Seq Scan on ${table}\\b`);
    const list = lister(path);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    await expectIndexedListReads({
      pool: catalog.running.infra.pool,
      statement,
      list,
      since,
      filter,
      index: index,
      keyset: 'ROW(created_at, id) < ROW(',
      scan: scanned,
    });
  });
});
