import { createOrganization } from '../lib/target.mjs';

/** Each seeded tree: a complete binary tree of 5 levels (1 + 2 + 4 + 8 + 16 = 31 categories), heap-numbered 0..30. */
const TREE = 31;
const LEVELS = 5;
const PRODUCTS_PER_CATEGORY = 2;

/** A UUID (version 4 in form, as the API's ids are) from the md5 of a SQL text expression: the same for the same text. */
const v4 = (text) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;
/** Category `i` of tree `t` of the organization `$1`. */
const categoryId = (t, i) => v4(`'growth-category-' || ${t} || '-' || ${i} || '-' || $1`);

/**
 * GET /api/v1/products?category_id=… (the category and its descendants, through the closure table) for one tree's
 * categories at each of the 5 levels, while the organization's category tree grows to `size` categories (trees of
 * 31, each category with 2 products, so the products grow with it). The measured tree is the first one seeded; the
 * rest are seeded after it, so a flat curve means the filter reads the subtree it asks for, not the tree or the catalog.
 */
export default {
  name: 'category filter vs. categories of the organization',
  x_label: 'categories of the organization (trees of 31, 2 products each)',
  sizes: [310, 3_100, 31_000],
  async seed(ctx, size, state) {
    const organization = state?.organization ?? (await createOrganization(ctx.baseUrl, 'Growth categories'));
    const from = state?.trees ?? 0;
    const to = size / TREE;
    await seedTrees(ctx, organization.id, from, to);
    await ctx.sql('VACUUM (ANALYZE) catalog.categories, catalog.category_paths, catalog.products, catalog.product_categories');
    // One category per level of tree 0: heap nodes 0, 1, 3, 7, 15 (the leftmost path).
    const rows = await ctx.sql(`SELECT i, ${categoryId('0', 'i')}::text AS id FROM unnest(ARRAY[0, 1, 3, 7, 15]) AS i ORDER BY i`, [
      organization.id,
    ]);
    return { organization, headers: organization.headers, trees: to, categories: rows.map((row) => row.id) };
  },
  requests: (state) => state.categories.map((id) => ({ method: 'GET', path: `/api/v1/products?category_id=${id}&limit=50` })),
};

/** Trees [from, to) of the organization: categories, their closure paths and products, straight into schema `catalog`. */
async function seedTrees(ctx, organizationId, from, to) {
  const nodes = `generate_series(${from}, ${to - 1}) AS t, generate_series(0, ${TREE - 1}) AS i`;
  await ctx.sql(
    `INSERT INTO catalog.categories (id, organization_id, name, slug, parent_id, created_at, updated_at)
     SELECT ${categoryId('t', 'i')}, $1::uuid, 'Category ' || t || '.' || i, 'growth-' || t || '-' || i,
            CASE WHEN i = 0 THEN NULL ELSE ${categoryId('t', '(i - 1) / 2')} END,
            now() - interval '1 day' + make_interval(secs => t * ${TREE} + i), now()
       FROM ${nodes}
      ORDER BY t, i`,
    [organizationId],
  );
  // Heap numbering, 1-based k = i + 1: the ancestor at distance d is k >> d, while that is at least 1.
  await ctx.sql(
    `INSERT INTO catalog.category_paths (ancestor_id, descendant_id, depth)
     SELECT ${categoryId('t', '((i + 1) >> d) - 1')}, ${categoryId('t', 'i')}, d
       FROM ${nodes}, generate_series(0, ${LEVELS - 1}) AS d
      WHERE (i + 1) >> d >= 1`,
    [organizationId],
  );
  await ctx.sql(
    `WITH seeded AS (
       INSERT INTO catalog.products (id, organization_id, name, slug, price_cents, status, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'Product ' || t || '.' || i || '.' || j, 'growth-' || t || '-' || i || '-' || j,
              1000, 'published', now() - interval '1 day' + make_interval(secs => t * ${TREE} + i), now()
         FROM ${nodes}, generate_series(1, ${PRODUCTS_PER_CATEGORY}) AS j
       RETURNING id, slug
     )
     INSERT INTO catalog.product_categories (product_id, organization_id, category_id, position)
     SELECT id, $1::uuid, ${categoryId("split_part(slug, '-', 2)", "split_part(slug, '-', 3)")}, 0 FROM seeded`,
    [organizationId],
  );
}
