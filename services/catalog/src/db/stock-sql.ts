import { isoInstantSql } from '@app/service-kit';

type Holder = { alias: string; itemColumn: 'variant_id' | 'product_id' };

/**
 * What of `reserved` is held by reservations that are still written as active but whose expires_at has passed: they
 * hold nothing from that instant on (API.md: "expiry releases at once"), until the next reservation of the
 * organization writes them as expired and takes them out of `reserved`. Found through the items' partial index of
 * active items, which holds only open checkouts.
 */
function lapsedSql({ alias, itemColumn }: Holder): string {
  return `(SELECT coalesce(sum(i.quantity), 0) FROM inventory_reservation_items i
            WHERE i.${itemColumn} = ${alias}.id AND i.active AND i.expires_at <= now())`;
}

/**
 * `available` of a variant (`v`, variant_id) or product (`p`, product_id) row at read time: stock less what active,
 * unexpired reservations hold, never below 0 (a PATCH may set stock below what is reserved); NULL when stock is not
 * tracked. Without reservations (reserved = 0, the usual row) it is the stock, and the lapsed sum is not looked up.
 */
export function availableSql(holder: Holder): string {
  const { alias } = holder;
  return `(CASE WHEN ${alias}.stock IS NULL THEN NULL WHEN ${alias}.reserved = 0 THEN ${alias}.stock
                ELSE greatest(${alias}.stock - ${alias}.reserved + ${lapsedSql(holder)}, 0)::int END)`;
}

/** True when the row can be sold: stock not tracked, or something available (the cheap tests first). */
function sellableSql(holder: Holder): string {
  const { alias } = holder;
  return `(${alias}.stock IS NULL OR ${alias}.stock > ${alias}.reserved
           OR (${alias}.stock > 0 AND ${alias}.stock - ${alias}.reserved + ${lapsedSql(holder)} > 0))`;
}

export const VARIANT: Holder = { alias: 'v', itemColumn: 'variant_id' };
export const PRODUCT: Holder = { alias: 'p', itemColumn: 'product_id' };

/** A variant row `v` as a JSON object of the VariantView shape (domain/variant.record.ts). */
const VARIANT_JSON = `json_build_object(
  'id', v.id, 'product_id', v.product_id, 'sku', v.sku, 'title', v.title, 'options', v.options,
  'price_cents', v.price_cents::float8, 'stock', v.stock, 'available', ${availableSql(VARIANT)}, 'version', v.version,
  'created_at', ${isoInstantSql('v.created_at')}, 'updated_at', ${isoInstantSql('v.updated_at')})`;

/**
 * The variants of product `p`, oldest first, as a JSON array: a sub-select of the product's own statement, so a list
 * page embeds its products' variants without a query per product (product_variants_product_idx serves each).
 */
export const PRODUCT_VARIANTS_JSON = `(CASE WHEN p.variant_count = 0 THEN '[]'::json ELSE
   (SELECT coalesce(json_agg(${VARIANT_JSON} ORDER BY v.created_at, v.id), '[]'::json) FROM product_variants v WHERE v.product_id = p.id) END)`;

/** The products of the organization `organization` (a placeholder) that something reserves a variant of. */
const reservedProductsSql = (organization: string): string =>
  `SELECT r.product_id FROM product_variants r WHERE r.organization_id = ${organization} AND r.reserved > 0`;

/**
 * The variants of a listed product `p` of the organization `organization` (a placeholder) as product_variant_lists keeps
 * them (migration 0008: each with `available` as it is when nothing reserves it), and the `available` of those something
 * reserves, by id, computed now (NULL when none is): one primary-key read per product, and a look at its reserved
 * variants only for the few products that have one (the organization's are found once for the statement, by
 * product_variants_reserved_idx), instead of building the JSON per read.
 */
export function listedVariantsSql(organization: string): string {
  return `CASE WHEN p.variant_count = 0 THEN '[]'::json
    ELSE (SELECT l.variants FROM product_variant_lists l WHERE l.product_id = p.id) END AS variants,
  CASE WHEN p.variant_count = 0 OR p.id NOT IN (${reservedProductsSql(organization)}) THEN NULL
    ELSE (SELECT json_object_agg(v.id, ${availableSql(VARIANT)}) FROM product_variants v
           WHERE v.organization_id = p.organization_id AND v.product_id = p.id AND v.reserved > 0) END AS reserved_available`;
}

/**
 * `in_stock=true` of API.md for product `p` of the organization `organization` (a placeholder): published and, without
 * variants, its own stock untracked or available; with variants, some variant untracked or with something available.
 * Every such variant is one of the product's `variants_stocked` (untracked or stock > 0, migration 0008), and one of
 * those is not sellable only when reservations hold all of its stock: so the product is in stock when it has more
 * stocked variants than held-out ones. The held-out ones are counted only for the few products something reserves
 * (one hashed look at product_variants_reserved_idx for the statement); the others are in stock when they have a
 * stocked variant. `variant_count` (migration 0006) spares a product without variants the look for them.
 */
export function inStockSql(organization: string): string {
  return `(p.status = 'published' AND CASE WHEN p.variant_count = 0 THEN ${sellableSql(PRODUCT)}
    ELSE p.variants_stocked > 0
     AND (p.id NOT IN (${reservedProductsSql(organization)})
          OR p.variants_stocked > (SELECT count(*) FROM product_variants v
                                    WHERE v.organization_id = ${organization} AND v.product_id = p.id AND v.reserved > 0
                                      AND v.stock > 0 AND NOT ${sellableSql(VARIANT)})) END)`;
}
