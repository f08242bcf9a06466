import { randomUUID } from 'node:crypto';
import { productUpdatedEvent, type AttachImageBody, type ProductImageRecord, type UpdateImageBody, isUuid } from '@app/contracts';
import { AppError } from '@app/service-kit';
import type { Tx } from '../db/client.js';
import { isForeignKeyViolation } from '../db/constraint-error.js';
import { findMedia, updateAltText } from '../db/media.repository.js';
import * as images from '../db/product-image.repository.js';
import { findProduct, lockProduct, updateProduct } from '../db/product.repository.js';
import { insertPosition, movePosition } from '../domain/image-order.js';
import { imageNotFound, mediaNotFound, productNotFound, type Caller, type CatalogDeps } from './context.js';
import { recordProductState } from './product-events.js';

type LockedProduct = NonNullable<Awaited<ReturnType<typeof lockProduct>>>;

/**
 * Runs a gallery change under the product's row lock (so concurrent changes of one product never
 * collide on a position), records `catalog.product.updated`, and answers the image as it now is.
 */
async function changeGallery(
  deps: CatalogDeps,
  caller: Caller,
  productId: string,
  change: (tx: Tx, product: LockedProduct) => Promise<string>,
): Promise<ProductImageRecord> {
  if (!isUuid(productId)) throw productNotFound();
  const { image, featuredImageId } = await deps.prisma
    .$transaction(async (tx) => {
      const product = await lockProduct(tx, caller.organizationId, productId);
      if (!product) throw productNotFound();
      const imageId = await change(tx, product);
      const state = await recordProductState(tx, caller, productId, productUpdatedEvent);
      const image = await images.findImage(tx, productId, imageId);
      if (!image) throw imageNotFound();
      return { image, featuredImageId: state.featured_image_id };
    })
    .catch((error: unknown) => {
      // The media file was deleted between our check and our insert: the foreign keys caught it.
      throw isForeignKeyViolation(error) ? mediaNotFound() : error;
    });
  deps.relay.wake();
  return images.toImageRecord(image, featuredImageId, deps.publicBaseUrl);
}

export function attachImage(deps: CatalogDeps, caller: Caller, productId: string, body: AttachImageBody): Promise<ProductImageRecord> {
  return changeGallery(deps, caller, productId, async (tx, product) => {
    if (!isUuid(body.media_file_id) || !(await findMedia(tx, caller.organizationId, body.media_file_id))) throw mediaNotFound();
    if (await images.isAttached(tx, product.id, body.media_file_id)) {
      throw new AppError('CONFLICT', 'This media file is already an image of the product');
    }
    const id = randomUUID();
    const position = insertPosition(body.order_index, await images.countImages(tx, product.id));
    await images.insertImageAt(
      tx,
      { id, organizationId: caller.organizationId, productId: product.id, mediaFileId: body.media_file_id },
      position,
    );
    if (body.is_featured) await updateProduct(tx, product.id, { featuredImageId: body.media_file_id });
    return id;
  });
}

export function updateImage(
  deps: CatalogDeps,
  caller: Caller,
  productId: string,
  imageId: string,
  body: UpdateImageBody,
): Promise<ProductImageRecord> {
  return changeGallery(deps, caller, productId, async (tx, product) => {
    const image = isUuid(imageId) ? await images.findImage(tx, product.id, imageId) : null;
    if (!image) throw imageNotFound();
    if (body.order_index !== undefined) {
      const to = movePosition(body.order_index, await images.countImages(tx, product.id));
      await images.moveImage(tx, product.id, image.id, image.order_index, to);
    }
    const featured = product.featured_image_id === image.media_file_id;
    if (body.is_featured === true && !featured) await updateProduct(tx, product.id, { featuredImageId: image.media_file_id });
    if (body.is_featured === false && featured) await updateProduct(tx, product.id, { featuredImageId: null });
    if (body.alt_text !== undefined) await updateAltText(tx, caller.organizationId, image.media_file_id, body.alt_text);
    return image.id;
  });
}

/** Detaches an image (the media file stays); detaching the featured image clears the product's featured_image_id. */
export async function deleteImage(
  deps: CatalogDeps,
  caller: Caller,
  productId: string,
  imageId: string,
): Promise<{ id: string; deleted: true }> {
  if (!isUuid(productId)) throw productNotFound();
  await deps.prisma.$transaction(async (tx) => {
    const product = await lockProduct(tx, caller.organizationId, productId);
    if (!product) throw productNotFound();
    const image = isUuid(imageId) ? await images.findImage(tx, product.id, imageId) : null;
    if (!image) throw imageNotFound();
    await images.removeImage(tx, product.id, image.id, image.order_index);
    if (product.featured_image_id === image.media_file_id) await updateProduct(tx, product.id, { featuredImageId: null });
    await recordProductState(tx, caller, product.id, productUpdatedEvent);
  });
  deps.relay.wake();
  return { id: imageId.toLowerCase(), deleted: true };
}

export async function listImages(deps: CatalogDeps, caller: Caller, productId: string): Promise<ProductImageRecord[]> {
  const product = isUuid(productId) ? await findProduct(deps.prisma, caller.organizationId, productId) : null;
  if (!product) throw productNotFound();
  const rows = await images.listImages(deps.prisma, productId);
  return rows.map((row) => images.toImageRecord(row, product.featured_image_id, deps.publicBaseUrl));
}
