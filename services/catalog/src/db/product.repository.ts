import { centsToDollars, type ProductRecord, type ProductStatus } from '@app/contracts';
import { isoInstant } from '@app/service-kit';
import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from './client.js';
import { mediaUrl } from './media.repository.js';

/** A product row with its featured media file joined (what every product response shows). */
export interface ProductView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  /** Exact as a double: prices are at most 1e11 cents, far below 2^53. */
  price_cents: number;
  status: string;
  stock: number | null;
  featured_image_id: string | null;
  featured_token: string | null;
  featured_public_name: string | null;
  featured_alt_text: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A product as a presenting read returns it: the instants already in the API's text form. */
export type PresentedProductView = Omit<ProductView, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/** The columns of ProductView for `FROM products p LEFT JOIN media_files m ON m.id = p.featured_image_id`, instants as `instant` renders them. */
export function productViewColumns(instant: (column: string) => string): string {
  return `p.id::text AS id, p.name, p.slug, p.description, p.price_cents::float8 AS price_cents, p.status, p.stock,
  p.featured_image_id::text AS featured_image_id, m.token AS featured_token, m.public_name AS featured_public_name,
  m.alt_text AS featured_alt_text, ${instant('p.created_at')} AS created_at, ${instant('p.updated_at')} AS updated_at`;
}

const PRODUCT_VIEW_COLUMNS = Prisma.raw(productViewColumns((column) => column));

export function toProductRecord(view: ProductView | PresentedProductView, baseUrl: string): ProductRecord {
  const featured =
    view.featured_image_id && view.featured_token && view.featured_public_name
      ? {
          id: view.featured_image_id,
          url: mediaUrl(baseUrl, { token: view.featured_token, publicName: view.featured_public_name }),
          alt_text: view.featured_alt_text ?? '',
        }
      : null;
  return {
    id: view.id,
    name: view.name,
    slug: view.slug,
    description: view.description,
    price: centsToDollars(view.price_cents),
    status: view.status as ProductStatus,
    stock: view.stock,
    featured_image_id: view.featured_image_id,
    featured_image: featured,
    created_at: isoInstant(view.created_at),
    updated_at: isoInstant(view.updated_at),
  };
}

export async function findProduct(db: Tx, organizationId: string, id: string): Promise<ProductView | null> {
  const rows = await db.$queryRaw<ProductView[]>`
    SELECT ${PRODUCT_VIEW_COLUMNS}
      FROM products p LEFT JOIN media_files m ON m.id = p.featured_image_id
     WHERE p.id = ${id}::uuid AND p.organization_id = ${organizationId}::uuid`;
  return rows[0] ?? null;
}

/**
 * Locks the product row for the rest of the transaction (image positions and featuring are changed
 * under it, so concurrent changes to one product's gallery run one after another).
 */
export async function lockProduct(
  db: Tx,
  organizationId: string,
  id: string,
): Promise<{ id: string; slug: string; featured_image_id: string | null } | null> {
  const rows = await db.$queryRaw<{ id: string; slug: string; featured_image_id: string | null }[]>`
    SELECT id::text AS id, slug, featured_image_id::text AS featured_image_id FROM products
     WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid
       FOR UPDATE`;
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
}

export async function insertProduct(
  db: Tx,
  product: Required<Pick<ProductChanges, 'name' | 'slug' | 'priceCents' | 'status'>> &
    ProductChanges & { id: string; organizationId: string },
): Promise<void> {
  await db.product.create({ data: product });
}

export async function updateProduct(db: Tx, id: string, changes: ProductChanges): Promise<void> {
  await db.product.update({ where: { id }, data: { ...changes, updatedAt: new Date() } });
}

export async function deleteProduct(db: Tx, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.product.deleteMany({ where: { id, organizationId } });
  return count > 0;
}

/**
 * Serialises slug generation for one family (`base`, `base-2`…) in one organization until the
 * transaction ends, then returns the family's slugs already taken.
 */
export async function lockSlugFamily(db: Tx, organizationId: string, base: string): Promise<string[]> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`catalog.slug:${organizationId}:${base}`}, 0))`;
  const pattern = `${escapeLike(base)}-%`;
  const rows = await db.$queryRaw<{ slug: string }[]>`
    SELECT slug FROM products
     WHERE organization_id = ${organizationId}::uuid AND (slug = ${base} OR slug LIKE ${pattern})`;
  return rows.map((row) => row.slug);
}

/** `%`, `_` and `\` of user text matched literally in LIKE/ILIKE (backslash is the escape character). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
