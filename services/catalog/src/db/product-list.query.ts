import type { ProductStatus } from '@app/contracts';
import { Prisma } from '../generated/prisma/client.js';
import type { Tx } from './client.js';
import { PRODUCT_VIEW_COLUMNS, escapeLike, type ProductView } from './product.repository.js';

export interface ProductFilters {
  status?: ProductStatus;
  /** Case-insensitive substring of the name; `%` and `_` match literally. */
  search?: string;
  minPriceCents?: number;
  maxPriceCents?: number;
  /** true: published and (stock not tracked or above zero); false: every other product. */
  inStock?: boolean;
  limit: number;
  offset: number;
}

function conditions(organizationId: string, filters: ProductFilters): Prisma.Sql {
  const parts = [Prisma.sql`p.organization_id = ${organizationId}::uuid`];
  if (filters.status) parts.push(Prisma.sql`p.status = ${filters.status}`);
  // ILIKE with a parameter is served by the pg_trgm GIN index on name.
  if (filters.search) parts.push(Prisma.sql`p.name ILIKE ${`%${escapeLike(filters.search)}%`}`);
  if (filters.minPriceCents !== undefined) parts.push(Prisma.sql`p.price_cents >= ${filters.minPriceCents}`);
  if (filters.maxPriceCents !== undefined) parts.push(Prisma.sql`p.price_cents <= ${filters.maxPriceCents}`);
  const available = Prisma.sql`(p.status = 'published' AND (p.stock IS NULL OR p.stock > 0))`;
  if (filters.inStock === true) parts.push(available);
  if (filters.inStock === false) parts.push(Prisma.sql`NOT ${available}`);
  return Prisma.join(parts, ' AND ');
}

type CountedView = ProductView & { total: bigint };

/**
 * One page of an organization's products, newest first, and the number of all that match, in one
 * statement. The total is an uncorrelated scalar subquery, computed once beside the page: a
 * `count(*) OVER ()` would make the page read and sort every matching row (all 20,000 of a large
 * catalog for a `limit=1` page), where this way the page walks the (organization, created_at) index and
 * stops at its LIMIT. Only a page past the end needs a second query for the total.
 */
export async function listProducts(
  db: Tx,
  organizationId: string,
  filters: ProductFilters,
): Promise<{ rows: ProductView[]; total: number }> {
  const where = conditions(organizationId, filters);
  const rows = await db.$queryRaw<CountedView[]>`
    WITH page AS (
      SELECT p.*
        FROM products p
       WHERE ${where}
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT ${filters.limit} OFFSET ${filters.offset}
    )
    SELECT ${PRODUCT_VIEW_COLUMNS}, (SELECT count(*) FROM products p WHERE ${where}) AS total
      FROM page p LEFT JOIN media_files m ON m.id = p.featured_image_id
     ORDER BY p.created_at DESC, p.id DESC`;
  const first = rows[0];
  if (first) return { rows, total: Number(first.total) };
  if (filters.offset === 0) return { rows, total: 0 };
  const [count] = await db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM products p WHERE ${where}`;
  return { rows, total: Number(count?.total ?? 0) };
}
