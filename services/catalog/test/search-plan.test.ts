import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, startedForTests } from '@app/service-testing';
import { Client, startCatalog } from './support/harness.js';

/**
 * A shop's name search must not cost more because other shops share the table (migration 0003): the trigram index is
 * entered with the organization too, so it yields this shop's matching names only, never the other shops' to be
 * filtered away. The SQL mirrors the list's search (organization, then the lowered pattern); `npm run bench` measures
 * the cost alone and among ten shops.
 */
describe('GET /api/v1/products?search= query plan among many shops', () => {
  const catalog = startedForTests(startCatalog);
  let shop: Client;

  beforeAll(async () => {
    shop = new Client(catalog.running);
    await shop.product({ name: 'Blue Oak Mug', price: 10 });
    // Ten shops of 2,000 products with the same names: a search for "mug" matches 100 of each.
    await catalog.running.infra.pool.query(
      `INSERT INTO products (id, organization_id, name, slug, price_cents, status, created_at, updated_at)
       SELECT gen_random_uuid(), CASE WHEN o = 0 THEN $1::uuid ELSE md5(o::text || $2)::uuid END,
              (ARRAY['Red','Blue','Green','Black'])[1 + g % 4] || ' ' || (ARRAY['Mug','Lamp','Chair','Table','Vase'])[1 + (g / 4) % 5] || ' ' || g,
              'search-plan-' || g, 100 + g, 'published', now(), now()
         FROM generate_series(0, 9) o, generate_series(1, 2000) g`,
      [shop.organizationId, randomUUID()],
    );
    await analyzeTables(catalog.running, ['catalog.products']);
  });

  it('when a shop searches names, then the index is entered with its organization and yields only its rows', async () => {
    const { rows } = await catalog.running.infra.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT p.id FROM products p
        WHERE p.organization_id = $1::uuid AND p.name_folded LIKE (SELECT lower($2))`,
      [shop.organizationId, '%mug%'],
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Bitmap Index Scan on products_org_name_trgm_idx/);
    expect(plan).toMatch(/Index Cond: \(\(organization_id = .*\) AND \(name_folded ~~/s);
    // The index hands over this shop's candidates only (its 400 "mug"s and the one made through the API), not ten shops'.
    const fetched = Number(/Bitmap Index Scan on products_org_name_trgm_idx \(actual rows=(\d+)/.exec(plan)?.[1]);
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThanOrEqual(401);

    const response = await shop.get('/api/v1/products?search=mug&limit=1');
    expect(response.json().meta.total).toBe(401);
  });
});
