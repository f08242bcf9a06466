import { randomUUID } from 'node:crypto';
import { productUpdatedEvent, type AttachImageBody, type ProductImageRecord, type UpdateImageBody } from '@app/contracts';
import { AppError, isForeignKeyViolation, recordId, requireMatch, type Caller, type IfMatch, type Versioned } from '@app/service-kit';
import { findMedia, lockMedia, updateAltText } from '../db/media.repository.js';
import type { Db } from '../db/prisma.js';
import * as images from '../db/product-image.repository.js';
import { findProduct, lockProduct, updateProduct, type LockedProduct } from '../db/product.repository.js';
import { insertPosition, movePosition } from '../domain/image-order.js';
import { productImageRecord, productImageVersion } from '../domain/product-image.record.js';
import { visibleTo } from '../domain/product-visibility.js';
import { imageNotFound, mediaNotFound, productNotFound, type UseCaseContext } from './context.js';
import { readProductRecord, recordProductState } from './product-events.js';

/**
 * Runs a gallery change under the product's row lock (so concurrent changes of one product never
 * collide on a position), records `catalog.product.updated`, and answers the image as it now is.
 */
async function changeGallery(
  ctx: UseCaseContext,
  caller: Caller,
  rawProductId: string,
  change: (tx: Db, product: LockedProduct) => Promise<string>,
): Promise<Versioned<ProductImageRecord>> {
  const productId = recordId(rawProductId, productNotFound);
  const { image, featuredImageId } = await ctx.prisma
    .$transaction(async (tx) => {
      const product = await lockProduct(tx, caller.organizationId, productId);
      if (!product) throw productNotFound();
      const before = await readProductRecord(tx, caller, productId, ctx.publicBaseUrl);
      const imageId = await change(tx, product);
      const state = await recordProductState(tx, caller, productId, productUpdatedEvent, ctx.publicBaseUrl, before);
      const image = await images.findImage(tx, productId, imageId);
      if (!image) throw imageNotFound();
      return { image, featuredImageId: state.record.featured_image_id };
    })
    .catch((error: unknown) => {
      // The media file was deleted between our check and our insert: the foreign keys caught it.
      throw isForeignKeyViolation(error) ? mediaNotFound() : error;
    });
  ctx.relay.wake();
  return { record: productImageRecord(image, featuredImageId, ctx.publicBaseUrl), version: productImageVersion(image, featuredImageId) };
}

/**
 * Checks an image's If-Match inside a gallery change (the product's row lock held, so its position and featuring stand
 * still), with its media file locked too: the alt text it shows is the media file's, which another product's gallery
 * may be changing, and a change of this image may write it. Read after both locks, the versions are the latest.
 */
async function requireImageMatch(
  tx: Db,
  caller: Caller,
  product: LockedProduct,
  image: images.ImageView,
  ifMatch: IfMatch | undefined,
): Promise<void> {
  if (ifMatch === undefined) return;
  const media = await lockMedia(tx, caller.organizationId, image.media_file_id);
  if (!media) throw imageNotFound(); // its media file cannot go while attached: only a race with the detach gets here
  const version = productImageVersion({ ...image, media_version: media.version }, product.featured_image_id);
  requireMatch(ifMatch, { id: image.id, version });
}

export async function attachImage(
  ctx: UseCaseContext,
  caller: Caller,
  { productId, body }: { productId: string; body: AttachImageBody },
): Promise<ProductImageRecord> {
  const attached = await changeGallery(ctx, caller, productId, async (tx, product) => {
    const mediaFileId = recordId(body.media_file_id, mediaNotFound);
    if (!(await findMedia(tx, caller.organizationId, mediaFileId))) throw mediaNotFound();
    if (await images.isAttached(tx, product.id, mediaFileId)) {
      throw new AppError('CONFLICT', 'This media file is already an image of the product');
    }
    const id = randomUUID();
    const position = insertPosition(body.order_index, await images.countImages(tx, product.id));
    await images.insertImageAt(tx, { id, organizationId: caller.organizationId, productId: product.id, mediaFileId }, position);
    if (body.is_featured) await updateProduct(tx, product.id, { featuredImageId: mediaFileId });
    return id;
  });
  return attached.record;
}

export function updateImage(
  ctx: UseCaseContext,
  caller: Caller,
  { productId, imageId, patch, ifMatch }: { productId: string; imageId: string; patch: UpdateImageBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<ProductImageRecord>> {
  return changeGallery(ctx, caller, productId, async (tx, product) => {
    const image = await images.findImage(tx, product.id, recordId(imageId, imageNotFound));
    if (!image) throw imageNotFound();
    await requireImageMatch(tx, caller, product, image, ifMatch);
    if (patch.order_index !== undefined) {
      const to = movePosition(patch.order_index, await images.countImages(tx, product.id));
      await images.moveImage(tx, product.id, image.id, image.order_index, to);
    }
    const featured = product.featured_image_id === image.media_file_id;
    if (patch.is_featured === true && !featured) await updateProduct(tx, product.id, { featuredImageId: image.media_file_id });
    if (patch.is_featured === false && featured) await updateProduct(tx, product.id, { featuredImageId: null });
    if (patch.alt_text !== undefined) await updateAltText(tx, caller.organizationId, image.media_file_id, patch.alt_text);
    return image.id;
  });
}

/** Detaches an image (the media file stays); detaching the featured image clears the product's featured_image_id. */
export async function deleteImage(
  ctx: UseCaseContext,
  caller: Caller,
  input: { productId: string; imageId: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const productId = recordId(input.productId, productNotFound);
  await ctx.prisma.$transaction(async (tx) => {
    const product = await lockProduct(tx, caller.organizationId, productId);
    if (!product) throw productNotFound();
    const image = await images.findImage(tx, product.id, recordId(input.imageId, imageNotFound));
    if (!image) throw imageNotFound();
    await requireImageMatch(tx, caller, product, image, input.ifMatch);
    const before = await readProductRecord(tx, caller, product.id, ctx.publicBaseUrl);
    await images.removeImage(tx, product.id, image.id, image.order_index);
    if (product.featured_image_id === image.media_file_id) await updateProduct(tx, product.id, { featuredImageId: null });
    await recordProductState(tx, caller, product.id, productUpdatedEvent, ctx.publicBaseUrl, before);
  });
  ctx.relay.wake();
  return { id: input.imageId.toLowerCase(), deleted: true };
}

export async function listImages(ctx: UseCaseContext, caller: Caller, rawProductId: string): Promise<ProductImageRecord[]> {
  const productId = recordId(rawProductId, productNotFound);
  const product = await findProduct(ctx.prisma, caller.organizationId, productId);
  if (!product || !visibleTo(caller, product)) throw productNotFound();
  const rows = await images.listImages(ctx.prisma, productId);
  return rows.map((row) => productImageRecord(row, product.featured_image_id, ctx.publicBaseUrl));
}
