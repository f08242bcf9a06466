import { centsToDollars, type MediaFileRecord, type ProductImageRecord, type ProductRecord, type ProductStatus } from '@app/contracts';
import { isoInstant } from '@app/service-kit';
import type { MediaRow } from '../db/media.repository.js';
import type { ImageView } from '../db/product-image.repository.js';
import type { PresentedProductView, ProductView } from '../db/product.repository.js';
import type { MediaMimeType } from '../domain/image-type.js';
import { mediaUrl } from '../domain/media-names.js';

/** The API record of a product, with its featured image (when it has one) as a short media file. */
export function presentProduct(view: ProductView | PresentedProductView, baseUrl: string): ProductRecord {
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

/** The API record of a product image; `featuredImageId` is the product's featured media file. */
export function presentProductImage(view: ImageView, featuredImageId: string | null, baseUrl: string): ProductImageRecord {
  return {
    id: view.id,
    product_id: view.product_id,
    media_file_id: view.media_file_id,
    order_index: view.order_index,
    // Featured = the product's featured media file: one update of the product features one image and no other.
    is_featured: view.media_file_id === featuredImageId,
    media_file: {
      id: view.media_file_id,
      url: mediaUrl(baseUrl, { token: view.token, publicName: view.public_name }),
      alt_text: view.alt_text ?? '',
    },
    created_at: view.created_at.toISOString(),
  };
}

/** The API record of a media file: its public URL instead of its storage key and token. */
export function presentMedia(row: MediaRow, baseUrl: string): MediaFileRecord {
  return {
    id: row.id,
    url: mediaUrl(baseUrl, row),
    alt_text: row.altText ?? '',
    filename: row.filename,
    mime_type: row.mimeType as MediaMimeType,
    size: row.size,
    width: row.width,
    height: row.height,
    created_at: row.createdAt.toISOString(),
  };
}
