// Inventory reservations of the catalog, run through the gateway by `npm run bench`: how many checkouts a second can
// hold stock, when they all want one item (every reservation waits for the one before on its row lock) and when they
// spread over many.

const HOT_STOCK = 2_000_000_000;
const MANY_ITEMS = 500;

/** `count` published products without variants, each with `stock`, straight into schema `catalog`; their ids. */
async function seedProducts(ctx, prefix, count, stock) {
  const rows = await ctx.sql(
    `INSERT INTO catalog.products (id, organization_id, name, slug, price_cents, status, stock)
     SELECT gen_random_uuid(), $1::uuid, 'Reservable ' || g, $2 || '-' || g || '-' || md5(random()::text), 1000, 'published', $3
       FROM generate_series(1, $4::int) AS g
     RETURNING id::text AS id`,
    [ctx.organizationId, prefix, stock, count],
  );
  return rows.map((row) => row.id);
}

/** One variant with a stock that no run uses up, through the API (as a shop makes it); its id. */
async function hotVariant(ctx) {
  const product = await ctx.api('POST', '/api/v1/products', {
    name: `Hot item ${Date.now()}`,
    price: 10,
    status: 'published',
    options: [{ name: 'Size', values: ['M'] }],
  });
  if (product.status !== 201) throw new Error(`cannot create the product: ${product.status} ${JSON.stringify(product.body)}`);
  const variant = await ctx.api('POST', `/api/v1/products/${product.body.data.id}/variants`, {
    sku: `HOT-${product.body.data.id}`,
    options: { Size: 'M' },
    stock: HOT_STOCK,
  });
  if (variant.status !== 201) throw new Error(`cannot create the variant: ${variant.status} ${JSON.stringify(variant.body)}`);
  return variant.body.data.id;
}

const reserve = (item) => ({
  method: 'POST',
  path: '/api/v1/inventory/reservations',
  body: { items: [{ ...item, quantity: 1 }], ttl_seconds: 60 },
});

export default [
  {
    name: 'inventory: reservations of one hot item',
    goal: 'measured (reservations/s)',
    async seed(ctx) {
      return { variantId: await hotVariant(ctx) };
    },
    requests({ variantId }) {
      return [reserve({ variant_id: variantId })];
    },
  },
  {
    name: `inventory: reservations spread over ${MANY_ITEMS} items`,
    goal: 'measured (reservations/s)',
    async seed(ctx) {
      return { productIds: await seedProducts(ctx, 'many', MANY_ITEMS, HOT_STOCK) };
    },
    requests({ productIds }) {
      return productIds.map((id) => reserve({ product_id: id }));
    },
  },
];
