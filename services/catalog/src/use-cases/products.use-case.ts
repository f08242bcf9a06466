import { randomUUID } from 'node:crypto';
import {
  dollarsToCents,
  productCreatedEvent,
  productDeletedEvent,
  productUpdatedEvent,
  type CreateProductBody,
  type ListMeta,
  type ListProductsQuery,
  type ProductRecord,
  type UpdateProductBody,
} from '@app/contracts';
import {
  AppError,
  eventContextOf,
  invalidInput,
  isForeignKeyViolation,
  isPublishable,
  isUniqueViolation,
  listPage,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import { findMedia } from '../db/media.repository.js';
import type { Db } from '../db/prisma.js';
import { listProducts as queryProducts, PRODUCT_LIST } from '../db/product-list.repository.js';
import * as products from '../db/product.repository.js';
import { visibleTo } from '../domain/product-visibility.js';
import { productRecord, productVersion } from '../domain/product.record.js';
import { nextFreeSlug, slugFromName } from '../domain/slug.js';
import { mediaNotFound, productNotFound, type UseCaseContext } from './context.js';
import { lockCategoryIds, setProductCategories } from './product-category-ids.js';
import { readProduct, recordProductState } from './product-events.js';
import { requireOptionsFitVariants } from './product-options.js';

const SLUG_INDEX = 'products_org_slug_key';
const FEATURED_FK = 'products_featured_image_fkey';
/** A generated slug can still lose a race against an explicit one of the same family; then it is generated again. */
const GENERATED_SLUG_ATTEMPTS = 5;

const slugTaken = () => new AppError('SLUG_TAKEN', 'A product with this slug already exists');

export async function createProduct(ctx: UseCaseContext, caller: Caller, body: CreateProductBody): Promise<ProductRecord> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const record = await ctx.prisma.$transaction(async (tx) => {
        if (typeof body.featured_image_id === 'string') await requireMedia(tx, caller, body.featured_image_id);
        const categoryIds = await lockCategoryIds(tx, caller, body.category_ids);
        categoryIds?.requireAll(); // 400 naming an unknown one
        const id = randomUUID();
        await products.insertProduct(tx, {
          id,
          organizationId: caller.organizationId,
          name: body.name,
          slug: body.slug ?? (await generateSlug(tx, caller, body.name)),
          description: body.description ?? null,
          priceCents: BigInt(dollarsToCents(body.price)),
          status: body.status,
          stock: body.stock ?? null,
          featuredImageId: body.featured_image_id ?? null,
          options: body.options,
        });
        await setProductCategories(tx, caller, id, categoryIds);
        return (await recordProductState(tx, caller, id, productCreatedEvent, ctx.publicBaseUrl)).record;
      });
      ctx.relay.wake();
      return record;
    } catch (error) {
      if (!isUniqueViolation(error, SLUG_INDEX)) throw mediaGoneOr(error);
      if (body.slug !== undefined || attempt >= GENERATED_SLUG_ATTEMPTS) throw slugTaken();
    }
  }
}

export async function listProducts(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListProductsQuery,
): Promise<{ items: ProductRecord[]; meta: ListMeta }> {
  if (query.min_price !== undefined && query.max_price !== undefined && query.min_price > query.max_price) {
    throw invalidInput('min_price', 'min_price must not be greater than max_price');
  }
  const filters = {
    status: query.status,
    search: query.search?.trim() || undefined,
    minPriceCents: query.min_price === undefined ? undefined : dollarsToCents(query.min_price),
    maxPriceCents: query.max_price === undefined ? undefined : dollarsToCents(query.max_price),
    inStock: query.in_stock,
    categoryId: query.category_id?.toLowerCase(),
    // A publishable key (a shop front) lists published products only: its totals and cursors are that list's.
    publishedOnly: isPublishable(caller) || undefined,
  };
  const page = listPage(PRODUCT_LIST, { organizationId: caller.organizationId, filters }, query);
  const { rows, meta } = await queryProducts(ctx.pool, caller.organizationId, filters, page);
  return { items: rows.map((row) => productRecord(row, ctx.publicBaseUrl)), meta };
}

/** A product of the organization; a publishable key sees published ones only (a draft or archived one is its 404). */
export async function getProduct(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<ProductRecord>> {
  const view = await products.findProduct(ctx.prisma, caller.organizationId, recordId(rawId, productNotFound));
  if (!view || !visibleTo(caller, view)) throw productNotFound();
  return { record: productRecord(view, ctx.publicBaseUrl), version: productVersion(view) };
}

/**
 * Checks `ifMatch` against the product `id`, whose row lock the caller's transaction holds: read after the lock, so
 * it sees the versions the last write before it left. Without If-Match nothing is read.
 */
async function requireProductMatch(tx: Db, caller: Caller, id: string, ifMatch: IfMatch | undefined): Promise<void> {
  if (ifMatch === undefined) return;
  const view = await products.findProduct(tx, caller.organizationId, id);
  if (!view) throw productNotFound();
  requireMatch(ifMatch, { id, version: productVersion(view) });
}

export async function updateProduct(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, changes: body, ifMatch }: { id: string; changes: UpdateProductBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<ProductRecord>> {
  const id = recordId(rawId, productNotFound);
  if (Object.values(body).every((value) => value === undefined)) {
    // Nothing to change: no write, no event, updated_at stays; a stale If-Match is still refused.
    const current = await getProduct(ctx, caller, id);
    requireMatch(ifMatch, { id, version: current.version });
    return current;
  }
  try {
    const product = await ctx.prisma.$transaction(async (tx) => {
      // The categories before the product's row (the order a category's delete locks them in); judged after If-Match.
      const categoryIds = await lockCategoryIds(tx, caller, body.category_ids);
      if (!(await products.lockProduct(tx, caller.organizationId, id))) throw productNotFound();
      // Read after the lock: the versions If-Match is checked against, and the record previous_attributes come from.
      const before = await readProduct(tx, caller, id, ctx.publicBaseUrl);
      requireMatch(ifMatch, { id, version: productVersion(before.view) });
      categoryIds?.requireAll(); // 400 naming an unknown one
      if (typeof body.featured_image_id === 'string') await requireMedia(tx, caller, body.featured_image_id);
      if (body.options !== undefined) await requireOptionsFitVariants(tx, id, body.options);
      await products.updateProduct(tx, id, {
        name: body.name,
        slug: body.slug,
        description: body.description,
        priceCents: body.price === undefined ? undefined : BigInt(dollarsToCents(body.price)),
        status: body.status,
        stock: body.stock,
        featuredImageId: body.featured_image_id,
        options: body.options,
      });
      await setProductCategories(tx, caller, id, categoryIds);
      return recordProductState(tx, caller, id, productUpdatedEvent, ctx.publicBaseUrl, before.record);
    });
    ctx.relay.wake();
    return product;
  } catch (error) {
    if (isUniqueViolation(error, SLUG_INDEX)) throw slugTaken();
    throw mediaGoneOr(error);
  }
}

/** Deletes the product and its image attachments; the media files stay (they may be used elsewhere). */
export async function deleteProduct(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, productNotFound);
  await ctx.prisma.$transaction(async (tx) => {
    if (ifMatch) {
      if (!(await products.lockProduct(tx, caller.organizationId, id))) throw productNotFound();
      await requireProductMatch(tx, caller, id, ifMatch);
    }
    if (!(await products.deleteProduct(tx, caller.organizationId, id))) throw productNotFound();
    await recordEvent(tx, productDeletedEvent, { id }, eventContextOf(caller));
  });
  ctx.relay.wake();
  return { id, deleted: true };
}

/** The next free slug of the name's family, under a lock that serialises creates of that family. */
async function generateSlug(tx: Db, caller: Caller, name: string): Promise<string> {
  const base = slugFromName(name);
  return nextFreeSlug(base, await products.lockSlugFamily(tx, caller.organizationId, base));
}

/** The featured media file was deleted between our check and our write (the foreign key caught it). */
function mediaGoneOr(error: unknown): unknown {
  return isForeignKeyViolation(error, FEATURED_FK) ? mediaNotFound() : error;
}

async function requireMedia(tx: Db, caller: Caller, mediaId: string): Promise<void> {
  if (!(await findMedia(tx, caller.organizationId, recordId(mediaId, mediaNotFound)))) throw mediaNotFound();
}
