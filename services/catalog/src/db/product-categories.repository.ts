import { sqlOf, type SqlParams } from '@app/service-kit';
import type { Db } from './prisma.js';

/**
 * A product's categories (product_categories, migration 0007), and the `category_id` filter of the product list.
 */

/**
 * The select-list item of a product's `category_ids`, in the order given, for the product row aliased `alias`: a
 * sub-select in the product's own statement, so a list embeds them without a query per product (served by the
 * table's primary key, product first).
 */
export function productCategoryIdsColumn(alias: string): string {
  return `ARRAY(SELECT pc.category_id::text FROM product_categories pc WHERE pc.product_id = ${alias}.id ORDER BY pc.position) AS category_ids`;
}

/**
 * The list's condition "in the category or any category below it": the category's subtree from the closure table
 * (one index range, whatever the depth), then its products (product_categories_category_idx). An unknown id, or
 * another organization's, matches none of the organization's products.
 */
export function inCategoryCondition(alias: string, categoryId: string, params: SqlParams): string {
  return `${alias}.id IN (SELECT pc.product_id FROM category_paths cp JOIN product_categories pc ON pc.category_id = cp.descendant_id
                           WHERE cp.ancestor_id = ${params.add(categoryId)}::uuid)`;
}

/**
 * Which of `ids` are categories of the organization, each locked against deletion (FOR KEY SHARE, as the foreign key
 * of product_categories would) until the transaction ends. Taken before the product's own row lock: a category's
 * delete locks the category and then its products, so both go in that order and never wait for each other in a circle.
 */
export async function lockExistingCategories(db: Db, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await sqlOf(db).query<{ id: string }>(
    `SELECT id::text AS id FROM categories
      WHERE organization_id = $1::uuid AND id = ANY($2::uuid[])
      ORDER BY id
        FOR KEY SHARE`,
    [organizationId, ids],
  );
  return new Set(rows.map((row) => row.id));
}

/** Replaces the product's categories with `ids`, in that order. */
export async function replaceProductCategories(db: Db, organizationId: string, productId: string, ids: readonly string[]): Promise<void> {
  const sql = sqlOf(db);
  await sql.query('DELETE FROM product_categories WHERE product_id = $1::uuid RETURNING category_id', [productId]);
  if (ids.length === 0) return;
  await sql.query(
    `INSERT INTO product_categories (product_id, organization_id, category_id, position)
     SELECT $1::uuid, $2::uuid, category_id, position - 1 FROM unnest($3::uuid[]) WITH ORDINALITY AS given (category_id, position)
     RETURNING category_id`,
    [productId, organizationId, ids],
  );
}

/** Locks the organization's products in the category (in id order) and gives their ids. */
export async function lockProductsInCategory(db: Db, organizationId: string, categoryId: string): Promise<string[]> {
  const { rows } = await sqlOf(db).query<{ id: string }>(
    `SELECT p.id::text AS id FROM products p
      WHERE p.organization_id = $1::uuid
        AND p.id IN (SELECT product_id FROM product_categories WHERE category_id = $2::uuid)
      ORDER BY p.id
        FOR UPDATE OF p`,
    [organizationId, categoryId],
  );
  return rows.map((row) => row.id);
}

/**
 * Takes the category off its products and marks each of them changed (the version trigger and updated_at), so their
 * ETags and `updated_since` see that their `category_ids` lost it. Gives the products that had it.
 */
export async function detachCategory(db: Db, categoryId: string): Promise<string[]> {
  const sql = sqlOf(db);
  const { rows } = await sql.query<{ product_id: string }>(
    'DELETE FROM product_categories WHERE category_id = $1::uuid RETURNING product_id::text AS product_id',
    [categoryId],
  );
  const ids = rows.map((row) => row.product_id);
  if (ids.length > 0) {
    await sql.query('UPDATE products SET updated_at = now() WHERE id = ANY($1::uuid[]) RETURNING id', [ids]);
  }
  return ids;
}
