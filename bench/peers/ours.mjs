// This system's side of `npm run bench:peers`: the stack as `npm run bench` starts it (bench/lib/target.mjs, on a
// fresh database), one shop holding the products of products.mjs, and a publishable key, the kind a shop front uses,
// as Medusa's store API is called with one.
import { context, ownStack } from '../lib/target.mjs';
import { products } from './products.mjs';

/**
 * The products straight into schema `catalog`, as bench/scenarios/catalog.mjs seeds its (the HTTP API would take
 * minutes for 20k, and what is measured is the reading), with the names, descriptions, prices, statuses and ages of
 * products.mjs; stock untracked, as Medusa's variants are seeded (`manage_inventory: false`).
 */
async function seedProducts(ctx) {
  const all = products();
  await ctx.sql(
    `INSERT INTO catalog.products (id, organization_id, name, slug, description, price_cents, status, stock, created_at, updated_at, options, variant_count)
     SELECT gen_random_uuid(), $1::uuid, p.title, p.handle, p.description, p.price_cents,
            CASE WHEN p.published THEN 'published' ELSE 'draft' END, NULL,
            now() - p.age * interval '1 second', now() - p.age * interval '1 second', '[]'::jsonb, 0
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::boolean[], $7::int[])
            AS p(title, handle, description, price_cents, published, age)`,
    [
      ctx.organizationId,
      all.map((p) => p.title),
      all.map((p) => p.handle),
      all.map((p) => p.description),
      all.map((p) => p.priceCents),
      all.map((p) => p.published),
      all.map((p) => p.ageSeconds),
    ],
  );
  // Statistics and the visibility map, as for Medusa's tables (this machine's Postgres runs without autovacuum).
  await ctx.sql('VACUUM (ANALYZE) catalog.products');
}

/** The stack, seeded: its gateway's URL, the publishable key's headers, its database, and `stop()`. */
export async function startOurs({ databaseUrl, port }) {
  // A publishable key is limited per key and client IP (120 a minute by default): the load generator is one client.
  process.env.PUBLISHABLE_RATE_LIMIT_MAX ??= '100000000';
  const target = await ownStack({ databaseUrl, port, portVariable: 'PEERS_PORT' });
  let ctx;
  try {
    ctx = await context(target);
    await seedProducts(ctx);
    const created = await ctx.api('POST', '/api/v1/api-keys', { name: 'Bench peers', type: 'publishable', allowed_origins: ['*'] });
    if (created.status !== 201) throw new Error(`cannot create the publishable key: ${created.status} ${JSON.stringify(created.body)}`);
    return {
      url: target.url,
      headers: { authorization: `Bearer ${created.body.data.key}` },
      database: ctx.database,
      children: target.children,
      stop: async () => {
        await ctx.close();
        await target.stop();
      },
    };
  } catch (error) {
    await ctx?.close();
    await target.stop();
    throw error;
  }
}
