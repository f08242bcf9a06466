import { sqlOf } from '@app/service-kit';
import type { ProductImageRecordSource } from '../domain/product-image.record.js';
import type { Db } from './prisma.js';

/** An attachment with the media file fields an image response shows, and the versions of both (its ETag's). */
export type ImageView = ProductImageRecordSource & { version: number; media_version: number };

/** A product's images in gallery order; only `imageId` when given. */
export async function listImages(db: Db, productId: string, imageId?: string): Promise<ImageView[]> {
  const { rows } = await sqlOf(db).query<ImageView>(
    `SELECT i.id::text AS id, i.product_id::text AS product_id, i.media_file_id::text AS media_file_id, i.order_index,
            i.created_at, m.token, m.public_name, m.alt_text, i.version, m.version AS media_version
       FROM product_images i JOIN media_files m ON m.id = i.media_file_id
      WHERE i.product_id = $1::uuid AND ($2::uuid IS NULL OR i.id = $2::uuid)
      ORDER BY i.order_index`,
    [productId, imageId ?? null],
  );
  return rows;
}

export async function findImage(db: Db, productId: string, imageId: string): Promise<ImageView | null> {
  const [image] = await listImages(db, productId, imageId);
  return image ?? null;
}

export function countImages(db: Db, productId: string): Promise<number> {
  return db.productImage.count({ where: { productId } });
}

export function isAttached(db: Db, productId: string, mediaFileId: string): Promise<boolean> {
  return db.productImage.count({ where: { productId, mediaFileId } }).then((count) => count > 0);
}

/** Inserts at `position`, moving the images at and after it one place down (callers hold the product lock). */
export async function insertImageAt(
  db: Db,
  image: { id: string; organizationId: string; productId: string; mediaFileId: string },
  position: number,
): Promise<void> {
  await sqlOf(db).query('UPDATE product_images SET order_index = order_index + 1 WHERE product_id = $1::uuid AND order_index >= $2', [
    image.productId,
    position,
  ]);
  await db.productImage.create({ data: { ...image, orderIndex: position } });
}

/** Moves an image from `from` to `to`; the images in between close the gap, so positions stay dense. */
export async function moveImage(db: Db, productId: string, imageId: string, from: number, to: number): Promise<void> {
  if (from === to) return;
  if (to < from) {
    await sqlOf(db).query(
      `UPDATE product_images SET order_index = order_index + 1
        WHERE product_id = $1::uuid AND order_index >= $2 AND order_index < $3`,
      [productId, to, from],
    );
  } else {
    await sqlOf(db).query(
      `UPDATE product_images SET order_index = order_index - 1
        WHERE product_id = $1::uuid AND order_index > $2 AND order_index <= $3`,
      [productId, from, to],
    );
  }
  await db.productImage.update({ where: { id: imageId }, data: { orderIndex: to } });
}

/** Removes an image and closes the gap it leaves. */
export async function removeImage(db: Db, productId: string, imageId: string, position: number): Promise<void> {
  await db.productImage.delete({ where: { id: imageId } });
  await sqlOf(db).query('UPDATE product_images SET order_index = order_index - 1 WHERE product_id = $1::uuid AND order_index > $2', [
    productId,
    position,
  ]);
}
