import type { ProductImageRecord } from '@app/contracts';
import type { RecordVersion } from '@app/service-kit';
import { mediaUrl } from './media-names.js';

/** The fields of an attachment, with its media file's, that its record shows. */
export interface ProductImageRecordSource {
  id: string;
  product_id: string;
  media_file_id: string;
  order_index: number;
  created_at: Date;
  token: string;
  public_name: string;
  alt_text: string | null;
}

/** A product image as the API shows it; `featuredImageId` is the product's featured media file, URLs under `baseUrl`. */
export function productImageRecord(view: ProductImageRecordSource, featuredImageId: string | null, baseUrl: string): ProductImageRecord {
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

/**
 * What a product image's ETag is made of: its row's version (its position moves it), its media file's (the alt text
 * it shows) and whether it is the featured one (the product's featured_image_id decides that, not the image's row).
 */
export function productImageVersion(
  versions: { version: number; media_version: number; media_file_id: string },
  featuredImageId: string | null,
): RecordVersion {
  return [versions.version, versions.media_version, versions.media_file_id === featuredImageId];
}
