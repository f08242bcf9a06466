import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, expectIndexedListReads, statementPlans } from '@app/service-testing';
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
    // Three variants of each of the shop's products: embedded in every listed record.
    await pool.query(
      `INSERT INTO product_variants (id, organization_id, product_id, sku, options, stock, created_at)
       SELECT gen_random_uuid(), p.organization_id, p.id, p.id || '-' || n, jsonb_build_object('Size', n::text), n, p.created_at
         FROM products p, generate_series(1, 3) n WHERE p.organization_id = $1::uuid`,
      [shop.organizationId],
    );
    // The variants' inserts touched their products (migration 0006): back to the seeded instant.
    await pool.query(`UPDATE products SET updated_at = now() - interval '30 days' WHERE organization_id = $1::uuid`, [shop.organizationId]);
    for (const table of ['products', 'media_files']) {
      // updated_at of three: the media files' trigger sets it to now() whatever the statement says.
      await pool.query(
        `UPDATE ${table} SET updated_at = now() WHERE id IN (SELECT id FROM ${table} WHERE organization_id = $1::uuid LIMIT 3)`,
        [shop.organizationId],
      );
    }
    await analyzeTables(catalog.running, [
      'catalog.products',
      'catalog.media_files',
      'catalog.product_variants',
      'catalog.product_variant_lists',
    ]);
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

  it('when a page of products with variants is listed, then one statement embeds them, from their kept lists by key', async () => {
    const plans = await statementPlans(catalog.running.infra.pool, /./, async () => {
      const body = await lister('/api/v1/products')('limit=50');
      expect(body.data).toHaveLength(50);
      expect(body.data.every((product) => (product as { variants: unknown[] }).variants.length === 3)).toBe(true);
    });

    expect(plans.map((plan) => plan.text).filter((text) => /product_variants/.test(text))).toHaveLength(1);
    const [page] = plans.filter((plan) => /FROM products p\b/.test(plan.text));
    // Each product's variant list by its key (migration 0008), and only the reserved variants' index for `available`.
    expect(page?.plan).toMatch(/Index (Only )?Scan using product_variant_lists_pkey\b/);
    expect(page?.plan).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) product_variants_reserved_idx\b/);
    expect(page?.plan).not.toMatch(/product_variants_product_idx|Seq Scan on product_variant/);
  });
});
