import { randomUUID } from 'node:crypto';
import {
  dollarsToCents,
  variantCreatedEvent,
  variantDeletedEvent,
  variantUpdatedEvent,
  type CreateVariantBody,
  type ListMeta,
  type ListVariantsQuery,
  type ProductOption,
  type UpdateVariantBody,
  type VariantRecord,
} from '@app/contracts';
import {
  AppError,
  eventContextOf,
  invalidInput,
  isUniqueViolation,
  listPage,
  previousAttributes,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import type { Db } from '../db/prisma.js';
import { findProduct, lockProduct } from '../db/product.repository.js';
import * as variants from '../db/variant.repository.js';
import { visibleTo } from '../domain/product-visibility.js';
import { variantOptionsProblem } from '../domain/variant-options.js';
import { variantRecord, variantVersion } from '../domain/variant.record.js';
import { productNotFound, variantNotFound, type UseCaseContext } from './context.js';

const SKU_INDEX = 'product_variants_org_sku_key';
const OPTIONS_INDEX = 'product_variants_options_key';

/** The two unique indexes of variants, as API.md's 409s. */
function refusal(error: unknown): unknown {
  if (isUniqueViolation(error, SKU_INDEX)) return new AppError('SKU_TAKEN', 'A variant with this SKU already exists');
  if (isUniqueViolation(error, OPTIONS_INDEX))
    return new AppError('VARIANT_EXISTS', 'A variant of this product with these options already exists');
  return error;
}

/** The product, its row locked (variants of one product change one after another, and never beside an options change). */
async function lockedProduct(tx: Db, caller: Caller, productId: string): Promise<{ options: ProductOption[]; priceCents: number }> {
  if (!(await lockProduct(tx, caller.organizationId, productId))) throw productNotFound();
  const product = await findProduct(tx, caller.organizationId, productId);
  if (!product) throw productNotFound();
  return { options: product.options, priceCents: product.price_cents };
}

function requireOptionsFit(productOptions: readonly ProductOption[], given: Record<string, string>): void {
  const problem = variantOptionsProblem(productOptions, given);
  if (problem) throw invalidInput(problem.path, problem.message);
}

/** The variant as it is now inside the transaction, as its record and the versions of its ETag. */
async function readVariant(tx: Db, productId: string, id: string, priceCents: number): Promise<Versioned<VariantRecord>> {
  const view = await variants.findVariant(tx, productId, id);
  if (!view) throw variantNotFound();
  return { record: variantRecord(view, priceCents), version: variantVersion(view, priceCents) };
}

const eventData = (record: VariantRecord) => ({ id: record.id, product_id: record.product_id, sku: record.sku, record });

export async function createVariant(
  ctx: UseCaseContext,
  caller: Caller,
  { productId: rawProductId, body }: { productId: string; body: CreateVariantBody },
): Promise<VariantRecord> {
  const productId = recordId(rawProductId, productNotFound);
  const record = await ctx.prisma
    .$transaction(async (tx) => {
      const product = await lockedProduct(tx, caller, productId);
      requireOptionsFit(product.options, body.options);
      const id = randomUUID();
      await variants.insertVariant(tx, {
        id,
        organizationId: caller.organizationId,
        productId,
        sku: body.sku,
        title: body.title ?? null,
        options: body.options,
        priceCents: body.price === undefined || body.price === null ? null : BigInt(dollarsToCents(body.price)),
        stock: body.stock ?? null,
      });
      const { record } = await readVariant(tx, productId, id, product.priceCents);
      await recordEvent(tx, variantCreatedEvent, eventData(record), eventContextOf(caller));
      return record;
    })
    .catch((error: unknown) => {
      throw refusal(error);
    });
  ctx.relay.wake();
  return record;
}

/** The product of a read, as the caller may see it (a publishable key: published products only, others 404). */
async function visibleProduct(ctx: UseCaseContext, caller: Caller, rawProductId: string) {
  const product = await findProduct(ctx.prisma, caller.organizationId, recordId(rawProductId, productNotFound));
  if (!product || !visibleTo(caller, product)) throw productNotFound();
  return product;
}

export async function listVariants(
  ctx: UseCaseContext,
  caller: Caller,
  { productId, query }: { productId: string; query: ListVariantsQuery },
): Promise<{ items: VariantRecord[]; meta: ListMeta }> {
  const product = await visibleProduct(ctx, caller, productId);
  const page = listPage(variants.VARIANT_LIST, { organizationId: caller.organizationId, filters: { product_id: product.id } }, query);
  const { rows, meta } = await variants.listVariants(ctx.prisma, product.id, page);
  return { items: rows.map((row) => variantRecord(row, product.price_cents)), meta };
}

export async function getVariant(
  ctx: UseCaseContext,
  caller: Caller,
  { productId, variantId }: { productId: string; variantId: string },
): Promise<Versioned<VariantRecord>> {
  const product = await visibleProduct(ctx, caller, productId);
  return readVariant(ctx.prisma, product.id, recordId(variantId, variantNotFound), product.price_cents);
}

/**
 * Locks the product then the variant (the order every writer of variants keeps), checks If-Match against the variant
 * as it is under the locks, and runs `change`.
 */
async function underLocks<T>(
  ctx: UseCaseContext,
  caller: Caller,
  input: { productId: string; variantId: string; ifMatch?: IfMatch | undefined },
  change: (
    tx: Db,
    target: { productId: string; id: string; product: { options: ProductOption[]; priceCents: number }; before: VariantRecord },
  ) => Promise<T>,
): Promise<T> {
  const productId = recordId(input.productId, productNotFound);
  const id = recordId(input.variantId, variantNotFound);
  const result = await ctx.prisma
    .$transaction(async (tx) => {
      const product = await lockedProduct(tx, caller, productId);
      if (!(await variants.lockVariant(tx, productId, id))) throw variantNotFound();
      const before = await readVariant(tx, productId, id, product.priceCents);
      requireMatch(input.ifMatch, { id, version: before.version });
      return change(tx, { productId, id, product, before: before.record });
    })
    .catch((error: unknown) => {
      throw refusal(error);
    });
  ctx.relay.wake();
  return result;
}

export function updateVariant(
  ctx: UseCaseContext,
  caller: Caller,
  input: { productId: string; variantId: string; changes: UpdateVariantBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<VariantRecord>> {
  const { changes: body } = input;
  return underLocks(ctx, caller, input, async (tx, { productId, id, product, before }) => {
    if (Object.values(body).every((value) => value === undefined)) return readVariant(tx, productId, id, product.priceCents);
    if (body.options !== undefined) requireOptionsFit(product.options, body.options);
    await variants.updateVariant(tx, id, {
      sku: body.sku,
      title: body.title,
      options: body.options,
      priceCents: body.price === undefined ? undefined : body.price === null ? null : BigInt(dollarsToCents(body.price)),
      stock: body.stock,
    });
    const after = await readVariant(tx, productId, id, product.priceCents);
    const previous = { previous_attributes: previousAttributes(before, after.record) };
    await recordEvent(tx, variantUpdatedEvent, { ...eventData(after.record), ...previous }, eventContextOf(caller));
    return after;
  });
}

/**
 * Deletes the variant. Its active reservations stay as they are (their items name it): committing or releasing them
 * later changes nothing of it.
 */
export async function deleteVariant(
  ctx: UseCaseContext,
  caller: Caller,
  input: { productId: string; variantId: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  return underLocks(ctx, caller, input, async (tx, { productId, id }) => {
    await variants.deleteVariant(tx, productId, id);
    await recordEvent(tx, variantDeletedEvent, { id, product_id: productId }, eventContextOf(caller));
    return { id, deleted: true as const };
  });
}
