import type { ListMeta } from '@app/contracts';
import { isoInstantSql, pageOfRows, SqlParams, sqlOf, type ListDefinition, type ListPage } from '@app/service-kit';
import type { VariantView } from '../domain/variant.record.js';
import type { Db } from './prisma.js';
import { availableSql, VARIANT } from './stock-sql.js';

/** A product's variants oldest first, then by id: served by product_variants_product_idx (product, created_at, id). */
export const VARIANT_LIST: ListDefinition = {
  name: 'variants',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** The VariantView columns of a variant row aliased `alias`. */
function variantColumns(alias: string): string {
  const available = availableSql({ ...VARIANT, alias });
  return `${alias}.id::text AS id, ${alias}.product_id::text AS product_id, ${alias}.sku, ${alias}.title, ${alias}.options,
  ${alias}.price_cents::float8 AS price_cents, ${alias}.stock, ${available} AS available, ${alias}.version,
  ${isoInstantSql(`${alias}.created_at`)} AS created_at, ${isoInstantSql(`${alias}.updated_at`)} AS updated_at`;
}

export async function findVariant(db: Db, productId: string, id: string): Promise<VariantView | null> {
  const { rows } = await sqlOf(db).query<VariantView>(
    `SELECT ${variantColumns('v')} FROM product_variants v WHERE v.id = $1::uuid AND v.product_id = $2::uuid`,
    [id, productId],
  );
  return rows[0] ?? null;
}

/** Locks the variant's row for the rest of the transaction (its product's row lock is taken first, always). */
export async function lockVariant(db: Db, productId: string, id: string): Promise<boolean> {
  const { rows } = await sqlOf(db).query(`SELECT 1 FROM product_variants WHERE id = $1::uuid AND product_id = $2::uuid FOR UPDATE`, [
    id,
    productId,
  ]);
  return rows.length > 0;
}

/** The options of every variant of the product (a change of the product's options must still fit them). */
export async function variantOptionsOf(db: Db, productId: string): Promise<{ sku: string; options: Record<string, string> }[]> {
  const { rows } = await sqlOf(db).query<{ sku: string; options: Record<string, string> }>(
    `SELECT sku, options FROM product_variants WHERE product_id = $1::uuid ORDER BY created_at, id`,
    [productId],
  );
  return rows;
}

export interface VariantChanges {
  sku?: string;
  title?: string | null;
  options?: Record<string, string>;
  priceCents?: bigint | null;
  stock?: number | null;
}

export async function insertVariant(
  db: Db,
  variant: VariantChanges & { id: string; organizationId: string; productId: string; sku: string; options: Record<string, string> },
): Promise<void> {
  await db.productVariant.create({ data: variant });
}

/** updated_at and the product's version and updated_at follow by trigger (migration 0006). */
export async function updateVariant(db: Db, id: string, changes: VariantChanges): Promise<void> {
  await db.productVariant.update({ where: { id }, data: changes });
}

export async function deleteVariant(db: Db, productId: string, id: string): Promise<boolean> {
  const { count } = await db.productVariant.deleteMany({ where: { id, productId } });
  return count > 0;
}

/** One page of a product's variants (cursor, offset, updated_since) and its meta, in one statement. */
export async function listVariants(db: Db, productId: string, page: ListPage): Promise<{ rows: VariantView[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.product_id = ${params.add(productId)}::uuid`];
  return pageOfRows<VariantView>(sqlOf(db), page, { table: 'product_variants', conditions, params, columns: variantColumns('t') });
}
