// Benchmarks of the catalog service, run through the gateway by `npm run bench`.

const PRODUCTS = 20_000;
const ADJECTIVES = ['Red', 'Blue', 'Green', 'Black', 'White', 'Rustic', 'Modern', 'Vintage', 'Tiny', 'Large'];
const MATERIALS = ['Oak', 'Steel', 'Glass', 'Ceramic', 'Linen', 'Cotton', 'Copper', 'Marble', 'Bamboo', 'Wool'];
const NOUNS = [
  'Mug',
  'Lamp',
  'Chair',
  'Table',
  'Vase',
  'Towel',
  'Bowl',
  'Shelf',
  'Clock',
  'Rug',
  'Plate',
  'Stool',
  'Mirror',
  'Basket',
  'Candle',
  'Pillow',
  'Blanket',
  'Tray',
  'Jar',
  'Frame',
];

const sqlArray = (words) => `ARRAY[${words.map((w) => `'${w}'`).join(', ')}]`;

export default [
  {
    name: 'catalog: list products with search + price filters (20k products)',
    goal: '>= 2000 req/s',
    ceiling: true,
    /**
     * Seeds straight into schema `catalog` (migrated by the time the stack is up): 20,000 products named
     * "<Adjective> <Material> <Noun> <n>" (each noun in 1 of 20, each material in 1 of 10), prices spread
     * over 1.00–99.99, mostly published, some out of stock.
     */
    async seed(ctx) {
      const [{ count }] = await ctx.sql('SELECT count(*)::int AS count FROM catalog.products WHERE organization_id = $1::uuid', [
        ctx.organizationId,
      ]);
      if (count < PRODUCTS) {
        await ctx.sql(
          `INSERT INTO catalog.products (id, organization_id, name, slug, description, price_cents, status, stock, created_at, updated_at)
           SELECT gen_random_uuid(), $1::uuid, name, 'bench-' || g, 'Bench product ' || g,
                  100 + (g * 7919) % 9900,
                  CASE WHEN g % 10 = 0 THEN 'draft' ELSE 'published' END,
                  CASE WHEN g % 7 = 0 THEN 0 WHEN g % 3 = 0 THEN NULL ELSE g % 50 END,
                  now() - g * interval '1 second', now() - g * interval '1 second'
             FROM generate_series(1, $2::int) AS g,
                  LATERAL (SELECT (${sqlArray(ADJECTIVES)})[1 + g % 10] || ' ' ||
                                  (${sqlArray(MATERIALS)})[1 + (g / 10) % 10] || ' ' ||
                                  (${sqlArray(NOUNS)})[1 + (g / 100) % 20] || ' ' || g AS name) AS n`,
          [ctx.organizationId, PRODUCTS],
        );
        // Statistics and the visibility map as autovacuum leaves a settled table, so the planner and the
        // index-only scans work as they would in production, not on a table of just-written rows.
        await ctx.sql('VACUUM (ANALYZE) catalog.products');
      }
      return {};
    },
    requests() {
      // autocannon cycles through these: a noun (~1 in 20), a material (~1 in 10), a two-word phrase.
      return [
        { method: 'GET', path: '/api/v1/products?search=mug&min_price=10&max_price=50&limit=50' },
        { method: 'GET', path: '/api/v1/products?search=copper&max_price=25&in_stock=true&limit=50' },
        { method: 'GET', path: '/api/v1/products?search=blue%20oak&min_price=5&limit=50' },
      ];
    },
  },
];
