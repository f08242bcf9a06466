// Benchmarks of the catalog service, run through the gateway by `npm run bench`.
import { ADJECTIVES, MATERIALS, NOUNS } from '../lib/product-words.mjs';
import { createOrganization } from '../lib/target.mjs';

const PRODUCTS = 20_000;

const sqlArray = (words) => `ARRAY[${words.map((w) => `'${w}'`).join(', ')}]`;

/** "<Adjective> <Material> <Noun> <n>" for n = g: each noun in 1 of 20 products, each material in 1 of 10. */
const productName = `(${sqlArray(ADJECTIVES)})[1 + g % 10] || ' ' || (${sqlArray(MATERIALS)})[1 + (g / 10) % 10] || ' ' ||
                     (${sqlArray(NOUNS)})[1 + (g / 100) % 20] || ' ' || g`;

/** The stock of a product's n-th variant (1-based): stock 0 for a seventh, untracked for a third. */
const variantSpread = (slug) => `abs(hashtext(${slug})) + n`;
const variantStock = (k) => `CASE WHEN (${k}) % 7 = 0 THEN 0 WHEN (${k}) % 3 = 0 THEN NULL ELSE (${k}) % 20 END`;

/**
 * Inserts `count` products named as above for `organizationId` (with `options`), straight into schema `catalog`, with
 * what the variants' trigger keeps of their `variantCount` variants (seedVariants): their count and how many are
 * stocked (migration 0008).
 */
async function seedShop(ctx, organizationId, count, options = [], variantCount = 0) {
  await ctx.sql(
    `INSERT INTO catalog.products (id, organization_id, name, slug, description, price_cents, status, stock, created_at, updated_at, options,
                                   variant_count, variants_stocked)
     SELECT gen_random_uuid(), $1::uuid, name, 'bench-' || g, 'Bench product ' || g,
            100 + (g * 7919) % 9900,
            CASE WHEN g % 10 = 0 THEN 'draft' ELSE 'published' END,
            CASE WHEN g % 7 = 0 THEN 0 WHEN g % 3 = 0 THEN NULL ELSE g % 50 END,
            now() - g * interval '1 second', now() - g * interval '1 second', $3::jsonb, $4,
            (SELECT count(*) FROM generate_series(1, $4::int) AS n
              WHERE coalesce(${variantStock(variantSpread(`'bench-' || g`))}, 1) > 0)
       FROM generate_series(1, $2::int) AS g, LATERAL (SELECT ${productName} AS name) AS n`,
    [organizationId, count, JSON.stringify(options), variantCount],
  );
}

/** Statistics and the visibility map as autovacuum leaves a settled table, so the planner and the index-only scans work
 * as they would in production, not on a table of just-written rows. */
const settle = (ctx) => ctx.sql('VACUUM (ANALYZE) catalog.products');

const productCount = async (ctx, organizationId) =>
  (await ctx.sql('SELECT count(*)::int AS count FROM catalog.products WHERE organization_id = $1::uuid', [organizationId]))[0].count;

// autocannon cycles through these: a noun (~1 in 20), a material (~1 in 10), a two-word phrase.
const SEARCHES = [
  { method: 'GET', path: '/api/v1/products?search=mug&min_price=10&max_price=50&limit=50' },
  { method: 'GET', path: '/api/v1/products?search=copper&max_price=25&in_stock=true&limit=50' },
  { method: 'GET', path: '/api/v1/products?search=blue%20oak&min_price=5&limit=50' },
];
const SEARCH_ALONE = 'catalog: list products with search + price filters (20k products)';

const SIZES = [{ name: 'Size', values: ['S', 'M', 'L'] }];

/**
 * Three variants of each of the shop's products (sizes S, M, L; stock 0 for a seventh, untracked for a third). The
 * trigger that touches a variant's product is off meanwhile: three updates of every product would leave the products'
 * rows spread over four times the pages of the shop they are compared with, a cost of the seeding, not of the search
 * (the products are inserted with their options, variant_count and variants_stocked instead, and their variant lists
 * are written once after, as the trigger would leave them: migration 0008).
 */
async function seedVariants(ctx, organizationId) {
  await ctx.sql('ALTER TABLE catalog.product_variants DISABLE TRIGGER product_variants_touch_product');
  try {
    await ctx.sql(
      `INSERT INTO catalog.product_variants (id, organization_id, product_id, sku, options, stock, created_at, updated_at)
     SELECT gen_random_uuid(), p.organization_id, p.id, p.slug || '-' || size, jsonb_build_object('Size', size),
            ${variantStock('k')}, p.created_at, p.updated_at
       FROM catalog.products p, unnest(ARRAY['S', 'M', 'L']) WITH ORDINALITY AS s(size, n),
            LATERAL (SELECT ${variantSpread('p.slug')} AS k) AS spread
      WHERE p.organization_id = $1::uuid`,
      [organizationId],
    );
    await ctx.sql(
      `INSERT INTO catalog.product_variant_lists (product_id, variants)
       SELECT p.id, catalog.variant_list_json(p.id) FROM catalog.products p WHERE p.organization_id = $1::uuid`,
      [organizationId],
    );
  } finally {
    await ctx.sql('ALTER TABLE catalog.product_variants ENABLE TRIGGER product_variants_touch_product');
  }
}
const OTHER_SHOPS = 9;

export default [
  {
    name: SEARCH_ALONE,
    goal: '>= 2000 req/s',
    ceiling: true,
    /**
     * Seeds straight into schema `catalog` (migrated by the time the stack is up): 20,000 products named
     * "<Adjective> <Material> <Noun> <n>" (each noun in 1 of 20, each material in 1 of 10), prices spread
     * over 1.00–99.99, mostly published, some out of stock.
     */
    async seed(ctx) {
      if ((await productCount(ctx, ctx.organizationId)) < PRODUCTS) {
        await seedShop(ctx, ctx.organizationId, PRODUCTS);
        await settle(ctx);
      }
      return {};
    },
    requests() {
      return SEARCHES;
    },
  },
  {
    name: 'catalog: the same searches, 3 variants per product (20k products)',
    goal: '>= 0.83 of the search without variants (cost <= 1.2x)',
    relativeTo: SEARCH_ALONE,
    /**
     * A shop of its own with the very products of the search alone (same names, prices, statuses), each with three
     * variants that every listed record embeds and `in_stock=true` looks into: a search must cost at most 1.2x.
     */
    async seed(ctx) {
      // Seeded afresh each run (a new organization): the variants' inserts are part of no other scenario's data.
      const shop = await createOrganization(ctx.baseUrl, 'Bench variants');
      await seedShop(ctx, shop.id, PRODUCTS, SIZES, 3);
      await seedVariants(ctx, shop.id);
      await ctx.sql('VACUUM (ANALYZE) catalog.products, catalog.product_variants, catalog.product_variant_lists');
      return { headers: shop.headers };
    },
    requests({ headers }) {
      return SEARCHES.map((request) => ({ ...request, headers }));
    },
  },
  {
    name: 'catalog: the same searches among 10 shops of 20k products',
    goal: '>= 0.83 of the search alone (cost <= 1.2x)',
    relativeTo: SEARCH_ALONE,
    /**
     * Nine more shops of 20,000 products with the very same names join the shop of the scenario before: a shop's
     * search must cost no more for them (the trigram index is entered with the organization, migration 0003).
     */
    async seed(ctx) {
      for (let shop = 1; shop <= OTHER_SHOPS; shop += 1) {
        const [{ id }] = await ctx.sql(`SELECT md5('bench-shop-' || $1::text)::uuid::text AS id`, [shop]);
        if ((await productCount(ctx, id)) < PRODUCTS) await seedShop(ctx, id, PRODUCTS);
      }
      await settle(ctx);
      return {};
    },
    requests() {
      return SEARCHES;
    },
  },
];
