import { centsToDollars, type ProductOption, type ProductRecord, type ProductStatus } from '@app/contracts';
import { isoInstant, type RecordVersion } from '@app/service-kit';
import { mediaUrl } from './media-names.js';
import { variantRecord, variantVersion, type ListedVariantView, type VariantView } from './variant.record.js';

/**
 * The fields of a product with its featured media file joined that its record shows: a stored read (instants as Date)
 * or a listing read (instants already as the API writes them).
 */
export interface ProductRecordSource {
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
  /** The product's categories in the order given (db/product-categories.repository.ts). */
  category_ids: string[];
  created_at: Date | string;
  updated_at: Date | string;
  options: ProductOption[];
  /** Its own stock less what active, unexpired reservations of the product hold (db/stock-sql.ts); null: untracked. */
  available: number | null;
  /** Oldest first. */
  variants: ListedVariantView[];
}

/**
 * A product as the API shows it and as its change events carry it, with its featured image (when it has one) as a
 * short media file under `baseUrl`.
 */
export function productRecord(view: ProductRecordSource, baseUrl: string): ProductRecord {
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
    available: view.available,
    options: view.options,
    variants: view.variants.map((variant) => variantRecord(variant, view.price_cents)),
    featured_image_id: view.featured_image_id,
    featured_image: featured,
    category_ids: view.category_ids,
    created_at: isoInstant(view.created_at),
    updated_at: isoInstant(view.updated_at),
  };
}

/**
 * What a product's ETag is made of: its row's version and its featured media file's (the record shows that file's alt
 * text, which changes without a write of the product; 0 without one), and what the record shows that no write of the
 * product's row changes: its `available` and each variant's version and `available` (an expiry changes `available` by
 * the mere passing of time, a reservation of a variant writes the variant only). A variant added or deleted changes the
 * product's version (migration 0006's trigger) as well as this list.
 */
export function productVersion(
  view: Pick<ProductRecordSource, 'available' | 'price_cents'> & {
    variants: VariantView[];
    version: number;
    featured_version: number | null;
  },
): RecordVersion {
  const variants = view.variants.flatMap((variant) => variantVersion(variant, view.price_cents));
  return [view.version, view.featured_version ?? 0, view.available ?? -1, ...variants];
}
