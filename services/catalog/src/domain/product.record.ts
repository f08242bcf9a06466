import { centsToDollars, type ProductRecord, type ProductStatus } from '@app/contracts';
import { isoInstant, type RecordVersion } from '@app/service-kit';
import { mediaUrl } from './media-names.js';

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
    featured_image_id: view.featured_image_id,
    featured_image: featured,
    category_ids: view.category_ids,
    created_at: isoInstant(view.created_at),
    updated_at: isoInstant(view.updated_at),
  };
}

/**
 * What a product's ETag is made of: its row's version and its featured media file's (the record shows that file's alt
 * text, which changes without a write of the product; 0 without one).
 */
export function productVersion(versions: { version: number; featured_version: number | null }): RecordVersion {
  return [versions.version, versions.featured_version ?? 0];
}
