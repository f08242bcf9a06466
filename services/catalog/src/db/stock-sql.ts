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

/**
 * `in_stock=true` of API.md for product `p`: published and, without variants, its own stock untracked or available;
 * with variants, some variant untracked or with something available. `variant_count` (migration 0006) spares a product
 * without variants the look for them.
 */
export const IN_STOCK_SQL = `(p.status = 'published' AND CASE WHEN p.variant_count = 0 THEN ${sellableSql(PRODUCT)}
    ELSE EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = p.id AND ${sellableSql(VARIANT)}) END)`;
