import type { ProductOption, ProductStatus } from '@app/contracts';
import { sqlOf } from '@app/service-kit';
import type { ProductRecordSource } from '../domain/product.record.js';
import type { VariantView } from '../domain/variant.record.js';
import { productCategoryIdsColumn } from './product-categories.repository.js';
import type { Db } from './prisma.js';
import { availableSql, PRODUCT, PRODUCT_VARIANTS_JSON } from './stock-sql.js';

/** A product row with its featured media file joined (what every product response shows), its instants as read. */
export type ProductView = ProductRecordSource & { created_at: Date; updated_at: Date };

/** A product as a presenting read returns it: the instants already in the API's text form. */
export type PresentedProductView = Omit<ProductView, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/**
 * The columns of ProductView for `FROM products p LEFT JOIN media_files m ON m.id = p.featured_image_id`, instants as
 * `instant` renders them, `variants` as the `variants` columns give them (by default built from the variants' rows).
 */
export function productViewColumns(instant: (column: string) => string, variants = `${PRODUCT_VARIANTS_JSON} AS variants`): string {
  return `p.id::text AS id, p.name, p.slug, p.description, p.price_cents::float8 AS price_cents, p.status, p.stock,
  p.featured_image_id::text AS featured_image_id, m.token AS featured_token, m.public_name AS featured_public_name,
  m.alt_text AS featured_alt_text, ${instant('p.created_at')} AS created_at, ${instant('p.updated_at')} AS updated_at,
  p.options, ${availableSql(PRODUCT)} AS available, ${variants}, ${productCategoryIdsColumn('p')}`;
}

const PRODUCT_VIEW_COLUMNS = productViewColumns((column) => column);

/** A product as a read of that one product returns it: with the versions its ETag is made of (domain/product.record.ts). */
export type VersionedProductView = Omit<ProductView, 'variants'> & {
  variants: VariantView[];
  version: number;
  featured_version: number | null;
};

export async function findProduct(db: Db, organizationId: string, id: string): Promise<VersionedProductView | null> {
  const { rows } = await sqlOf(db).query<VersionedProductView>(
    `SELECT ${PRODUCT_VIEW_COLUMNS}, p.version, m.version AS featured_version
       FROM products p LEFT JOIN media_files m ON m.id = p.featured_image_id
      WHERE p.id = $1::uuid AND p.organization_id = $2::uuid`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** What a gallery change needs of the product it locked. */
export interface LockedProduct {
  id: string;
  slug: string;
  featured_image_id: string | null;
}

/**
 * Locks the product row for the rest of the transaction (image positions and featuring are changed
 * under it, so concurrent changes to one product's gallery run one after another).
 */
export async function lockProduct(db: Db, organizationId: string, id: string): Promise<LockedProduct | null> {
  const { rows } = await sqlOf(db).query<LockedProduct>(
    `SELECT id::text AS id, slug, featured_image_id::text AS featured_image_id FROM products
      WHERE id = $1::uuid AND organization_id = $2::uuid
        FOR UPDATE`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

export interface ProductChanges {
  name?: string;
  slug?: string;
  description?: string | null;
  priceCents?: bigint;
  status?: ProductStatus;
  stock?: number | null;
  featuredImageId?: string | null;
  options?: ProductOption[];
}

export async function insertProduct(
  db: Db,
  product: Required<Pick<ProductChanges, 'name' | 'slug' | 'priceCents' | 'status'>> &
    ProductChanges & { id: string; organizationId: string },
): Promise<void> {
  await db.product.create({ data: product });
}

export async function updateProduct(db: Db, id: string, changes: ProductChanges): Promise<void> {
  await db.product.update({ where: { id }, data: { ...changes, updatedAt: new Date() } });
}

export async function deleteProduct(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.product.deleteMany({ where: { id, organizationId } });
  return count > 0;
}

/**
 * Serialises slug generation for one family (`base`, `base-2`…) in one organization until the
 * transaction ends, then returns the family's slugs already taken.
 */
export async function lockSlugFamily(db: Db, organizationId: string, base: string): Promise<string[]> {
  const sql = sqlOf(db);
  // Selected FROM the call: the lock function returns void, which is no value to hand back.
  await sql.query('SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended($1, 0))', [`catalog.slug:${organizationId}:${base}`]);
  const { rows } = await sql.query<{ slug: string }>(
    `SELECT slug FROM products
      WHERE organization_id = $1::uuid AND (slug = $2 OR slug LIKE $3)`,
    [organizationId, base, `${escapeLike(base)}-%`],
  );
  return rows.map((row) => row.slug);
}

/** `%`, `_` and `\` of user text matched literally in LIKE/ILIKE (backslash is the escape character). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
