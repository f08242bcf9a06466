import { centsToDollars, type VariantRecord } from '@app/contracts';
import type { RecordVersion } from '@app/service-kit';

/**
 * A variant row as every read selects it (db/variant.repository.ts `variantJsonSql`): instants already in the API's
 * text form, `available` computed at read time from its stock and its active, unexpired reservations.
 */
export interface VariantView {
  id: string;
  product_id: string;
  sku: string;
  title: string | null;
  options: Record<string, string>;
  /** null: the product's current price shows. */
  price_cents: number | null;
  stock: number | null;
  available: number | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A variant as a product list embeds it (db/stock-sql.ts listedVariantsSql): what its record shows, no version. */
export type ListedVariantView = Omit<VariantView, 'version'>;

/** A variant as the API shows it: its own price, or its product's current one (`productPriceCents`) when it has none. */
export function variantRecord(view: ListedVariantView, productPriceCents: number): VariantRecord {
  return {
    id: view.id,
    product_id: view.product_id,
    sku: view.sku,
    title: view.title,
    options: view.options,
    price: centsToDollars(view.price_cents ?? productPriceCents),
    stock: view.stock,
    available: view.available,
    created_at: view.created_at,
    updated_at: view.updated_at,
  };
}

/**
 * What a variant's ETag is made of. Its row's version alone would miss two things its record shows without a write
 * of the row: `available`, which an expiry changes by the mere passing of time (and a reservation changes without a
 * change of the variant itself), and the product's price, which a variant without its own shows. So both go in.
 */
export function variantVersion(view: VariantView, productPriceCents: number): RecordVersion {
  return [view.version, view.available ?? -1, view.price_cents === null ? productPriceCents : -1];
}
