import type { ListMeta, ProductStatus } from '@app/contracts';
import {
  isoInstantSql,
  namedStatement,
  SqlParams,
  type ListDefinition,
  type ListPage,
  type PageSql,
  type Queryable,
} from '@app/service-kit';
import { inCategoryCondition } from './product-categories.repository.js';
import { escapeLike, productViewColumns, type PresentedProductView } from './product.repository.js';
import type { ListedVariantView } from '../domain/variant.record.js';
import { inStockSql, listedVariantsSql } from './stock-sql.js';

export interface ProductFilters {
  status?: ProductStatus | undefined;
  /** Only published products, whatever `status` asks (a publishable key's list): with another status, none. */
  publishedOnly?: true | undefined;
  /** Case-insensitive substring of the name; `%` and `_` match literally. */
  search?: string | undefined;
  minPriceCents?: number | undefined;
  maxPriceCents?: number | undefined;
  /** true: published and something to sell (stock-sql.ts inStockSql, variants included); false: every other product. */
  inStock?: boolean | undefined;
  /** In this category or one below it. */
  categoryId?: string | undefined;
}

/** Newest first, then by id: served by products_org_created_idx (organization, created_at DESC, id DESC). */
export const PRODUCT_LIST: ListDefinition = {
  name: 'products',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'DESC',
  },
};

/** The columns of a listed product of the organization `organization` (a placeholder). */
const columns = (organization: string): string => productViewColumns(isoInstantSql, listedVariantsSql(organization));

function conditions(organization: string, filters: ProductFilters, params: SqlParams): string {
  const parts = [`p.organization_id = ${organization}`];
  if (filters.status) parts.push(`p.status = ${params.add(filters.status)}`);
  if (filters.publishedOnly) parts.push(`p.status = 'published'`);
  // name_folded is lower(name): this is `name ILIKE pattern`, served by the trigram index on name_folded.
  // The pattern is lowered once, in a sub-select: a named statement is soon run with a generic plan, and
  // there a bare lower($n) is evaluated again for every candidate row (measured: twice the execution time).
  if (filters.search) parts.push(`p.name_folded LIKE (SELECT lower(${params.add(`%${escapeLike(filters.search)}%`)}))`);
  if (filters.minPriceCents !== undefined) parts.push(`p.price_cents >= ${params.add(filters.minPriceCents)}`);
  if (filters.maxPriceCents !== undefined) parts.push(`p.price_cents <= ${params.add(filters.maxPriceCents)}`);
  if (filters.inStock === true) parts.push(inStockSql(organization));
  if (filters.inStock === false) parts.push(`NOT ${inStockSql(organization)}`);
  if (filters.categoryId) parts.push(inCategoryCondition('p', filters.categoryId, params));
  return parts.join(' AND ');
}

const and = (where: string, condition: string | undefined): string => (condition ? `${where} AND ${condition}` : where);

/**
 * Without a search, the page walks the (organization, created_at) index from the cursor (or the start) and stops at
 * its LIMIT, and the counts are an uncorrelated aggregate beside it that the page is LEFT JOINed to (so an empty page
 * still has them): a `count(*) OVER ()` would make the page read and sort every product of a large catalog even for
 * `limit=1`.
 */
function browsing(where: string, sql: PageSql, organization: string): string {
  return `
    WITH page AS (SELECT p.* FROM products p WHERE ${and(where, sql.after)} ORDER BY ${sql.orderBy} ${sql.limit})
    SELECT c.total, c.before, ${columns(organization)}, ${sql.cursorKeys}
      FROM (SELECT count(*)::int AS total, ${sql.before} AS before FROM products p WHERE ${where}) c
      LEFT JOIN (page p LEFT JOIN media_files m ON m.id = p.featured_image_id) ON true
     ORDER BY ${sql.orderBy}`;
}

/**
 * With a search, the trigram index yields the candidates; their recheck is the costly part, so they are
 * matched once, kept as (id, created_at), and both counted and paged from there.
 */
function searching(where: string, sql: PageSql, organization: string): string {
  return `
    WITH matches AS MATERIALIZED (SELECT p.id, p.created_at FROM products p WHERE ${where}),
         page AS (SELECT p.id FROM matches p WHERE ${sql.after ?? 'true'} ORDER BY ${sql.orderBy} ${sql.limit})
    SELECT c.total, c.before, ${columns(organization)}, ${sql.cursorKeys}
      FROM (SELECT count(*)::int AS total, ${sql.before} AS before FROM matches p) c
      LEFT JOIN (page JOIN products p ON p.id = page.id LEFT JOIN media_files m ON m.id = p.featured_image_id) ON true
     ORDER BY ${sql.orderBy}`;
}

/**
 * A row of the statement; an empty page is one row of counts, its product columns null. `variants` are as kept
 * (available: their stock), `reserved_available` the available of those something reserves (stock-sql.ts).
 */
type ListedRow = Omit<PresentedProductView, 'id'> & {
  id: string | null;
  total: number;
  before: number | null;
  cursorKeys: string;
  reserved_available: Record<string, number | null> | null;
};

/** The product's variants with the `available` of those something reserves as read now. */
function withReservedAvailable(variants: ListedVariantView[], reserved: ListedRow['reserved_available']): ListedVariantView[] {
  if (reserved === null) return variants;
  return variants.map((variant) => (variant.id in reserved ? { ...variant, available: reserved[variant.id] ?? null } : variant));
}

/**
 * One page of an organization's products, newest first, and its meta (the number of all that match, and of those
 * before the page), in one statement (named, so each connection plans it once).
 */
export async function listProducts(
  db: Queryable,
  organizationId: string,
  filters: ProductFilters,
  page: ListPage,
): Promise<{ rows: PresentedProductView[]; meta: ListMeta }> {
  const params = new SqlParams();
  const sql = page.sql(params, 'p');
  const organization = `${params.add(organizationId)}::uuid`;
  const where = [conditions(organization, filters, params), ...sql.filters].join(' AND ');
  const text = filters.search ? searching(where, sql, organization) : browsing(where, sql, organization);
  const { rows } = await db.query<ListedRow>(namedStatement(text, params.values));
  const counts = { total: rows[0]?.total ?? 0, before: rows[0]?.before ?? null };
  const listed = page.rowsOf(rows.filter((row): row is ListedRow & { id: string } => row.id !== null));
  return {
    rows: listed.map(({ total: _total, before: _before, cursorKeys: _cursorKeys, reserved_available, ...row }) => ({
      ...row,
      variants: withReservedAvailable(row.variants, reserved_available),
    })),
    meta: page.meta(counts, listed),
  };
}
