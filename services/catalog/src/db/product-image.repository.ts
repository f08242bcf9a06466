import type { ProductImageRecord } from '@app/contracts';
import type { Tx } from './client.js';
import { mediaUrl } from './media.repository.js';

/** An attachment with the media file fields an image response shows. */
export interface ImageView {
  id: string;
  product_id: string;
  media_file_id: string;
  order_index: number;
  created_at: Date;
  token: string;
  public_name: string;
  alt_text: string | null;
}

export function toImageRecord(view: ImageView, featuredImageId: string | null, baseUrl: string): ProductImageRecord {
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

export function listImages(db: Tx, productId: string, imageId?: string): Promise<ImageView[]> {
  return db.$queryRaw<ImageView[]>`
    SELECT i.id::text AS id, i.product_id::text AS product_id, i.media_file_id::text AS media_file_id, i.order_index,
           i.created_at, m.token, m.public_name, m.alt_text
      FROM product_images i JOIN media_files m ON m.id = i.media_file_id
     WHERE i.product_id = ${productId}::uuid AND (${imageId ?? null}::uuid IS NULL OR i.id = ${imageId ?? null}::uuid)
     ORDER BY i.order_index`;
}

export async function findImage(db: Tx, productId: string, imageId: string): Promise<ImageView | null> {
  const [image] = await listImages(db, productId, imageId);
  return image ?? null;
}

export function countImages(db: Tx, productId: string): Promise<number> {
  return db.productImage.count({ where: { productId } });
}

export function isAttached(db: Tx, productId: string, mediaFileId: string): Promise<boolean> {
  return db.productImage.count({ where: { productId, mediaFileId } }).then((count) => count > 0);
}

/** Inserts at `position`, moving the images at and after it one place down (callers hold the product lock). */
export async function insertImageAt(
  db: Tx,
  image: { id: string; organizationId: string; productId: string; mediaFileId: string },
  position: number,
): Promise<void> {
  await db.$executeRaw`
    UPDATE product_images SET order_index = order_index + 1
     WHERE product_id = ${image.productId}::uuid AND order_index >= ${position}`;
  await db.productImage.create({ data: { ...image, orderIndex: position } });
}

/** Moves an image from `from` to `to`; the images in between close the gap, so positions stay dense. */
export async function moveImage(db: Tx, productId: string, imageId: string, from: number, to: number): Promise<void> {
  if (from === to) return;
  if (to < from) {
    await db.$executeRaw`
      UPDATE product_images SET order_index = order_index + 1
       WHERE product_id = ${productId}::uuid AND order_index >= ${to} AND order_index < ${from}`;
  } else {
    await db.$executeRaw`
      UPDATE product_images SET order_index = order_index - 1
       WHERE product_id = ${productId}::uuid AND order_index > ${from} AND order_index <= ${to}`;
  }
  await db.productImage.update({ where: { id: imageId }, data: { orderIndex: to } });
}

/** Removes an image and closes the gap it leaves. */
export async function removeImage(db: Tx, productId: string, imageId: string, position: number): Promise<void> {
  await db.productImage.delete({ where: { id: imageId } });
  await db.$executeRaw`
    UPDATE product_images SET order_index = order_index - 1
     WHERE product_id = ${productId}::uuid AND order_index > ${position}`;
}
