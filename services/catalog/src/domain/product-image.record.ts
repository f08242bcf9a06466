import type { ProductImageRecord } from '@app/contracts';
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
