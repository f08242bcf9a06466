import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, FileDatabase, statementPlans } from '@app/service-testing';
import { Client, startCatalog } from './support/harness.js';

/**
 * A large shop: 20,000 products in 1,000 categories (200 roots of 5 levels each), one category per product. The
 * `category_id` filter reads the category's subtree from the closure table and its products from
 * product_categories by index, and each listed product's `category_ids` come from the primary key of
 * product_categories: nothing is read whole. The plans are of the very statements the list sends.
 */
/** A UUID (version 4 in form, as the API's ids are) made from the md5 of `text`, a SQL expression: the same for the same text. */
const v4 = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

describe('GET /api/v1/products?category_id= query plans', () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  let shop: Client;
  // A database of its own: the plans follow the statistics of every row of the table, other files' included.
  const database = FileDatabase.create();
  let root = '';

  beforeAll(async () => {
    catalog = await startCatalog({ DATABASE_URL: database.url });
    shop = new Client(catalog.running);
    const { pool } = catalog.running.infra;
    const org = shop.organizationId;
    // Category c (0..999) of chain c / 5, at level c % 5 + 1; its parent is c - 1 within the chain.
    await pool.query(
      `INSERT INTO categories (id, organization_id, name, slug, parent_id)
       SELECT ${v4("'c' || c || $1")}, $1::uuid, 'C ' || c, 'c-' || c,
              CASE WHEN c % 5 = 0 THEN NULL ELSE ${v4("'c' || (c - 1) || $1")} END
         FROM generate_series(0, 999) c ORDER BY c`,
      [org],
    );
    await pool.query(
      `INSERT INTO category_paths (ancestor_id, descendant_id, depth)
       SELECT ${v4("'c' || a || $1")}, ${v4("'c' || d || $1")}, d - a
         FROM generate_series(0, 999) d, generate_series(0, 999) a
        WHERE a / 5 = d / 5 AND a <= d`,
      [org],
    );
    await pool.query(
      `INSERT INTO products (id, organization_id, name, slug, price_cents, status, created_at)
       SELECT ${v4("'p' || g || $1")}, $1::uuid, 'Product ' || g, 'p-' || g, 100, 'published', now() - make_interval(secs => g)
         FROM generate_series(1, 20000) g`,
      [org],
    );
    await pool.query(
      `INSERT INTO product_categories (product_id, organization_id, category_id, position)
       SELECT ${v4("'p' || g || $1")}, $1::uuid, ${v4("'c' || (g % 1000) || $1")}, 0 FROM generate_series(1, 20000) g`,
      [org],
    );
    root = (await pool.query<{ id: string }>(`SELECT ${v4("'c' || 500 || $1")}::text AS id`, [org])).rows[0]?.id ?? '';
    await analyzeTables(catalog.running, [
      'catalog.products',
      'catalog.categories',
      'catalog.category_paths',
      'catalog.product_categories',
    ]);
  });
  afterAll(async () => {
    await catalog.stop();
    await database.drop();
  });

  it('when products are filtered by a root category, then its subtree and products are read by index, and the page is right', async () => {
    const plans = await statementPlans(catalog.running.infra.pool, /FROM products p\b/, async () => {
      const response = await shop.get(`/api/v1/products?category_id=${root}&limit=50`);
      expect(response.statusCode).toBe(200);
      // 5 categories of the chain, 20 products each.
      expect(response.json().meta.total).toBe(100);
      expect(response.json().data).toHaveLength(50);
    });

    expect(plans).toHaveLength(1);
    const plan = plans[0]?.plan ?? '';
    expect(plan).not.toMatch(/Seq Scan on (products|product_categories|category_paths)\b/);
    expect(plan).toMatch(/category_paths_pkey/);
    expect(plan).toMatch(/product_categories_category_idx/);
  });

  it('when products are listed unfiltered, then their category_ids come from the primary key of product_categories', async () => {
    const plans = await statementPlans(catalog.running.infra.pool, /FROM products p\b/, async () => {
      expect((await shop.get('/api/v1/products?limit=50')).statusCode).toBe(200);
    });

    // (The total counts the whole shop, which here is the whole table: its scan of products is the count's.)
    const plan = plans[0]?.plan ?? '';
    expect(plan).not.toMatch(/Seq Scan on product_categories\b/);
    expect(plan).toMatch(/product_categories_pkey/);
  });
});
