import { productUpdatedEvent } from '@app/contracts';
import type { Caller } from '@app/service-kit';
import { detachCategory, lockProductsInCategory } from '../db/product-categories.repository.js';
import type { Db } from '../db/prisma.js';
import { readProduct, recordProductState } from './product-events.js';

/**
 * Takes a category being deleted off its products: each is locked, read as it was, changed (version, updated_at) and
 * sends `product.updated` with the `category_ids` it had, as a PATCH of its list would. The caller holds the category's
 * row lock, so no product takes it meanwhile.
 */
export async function detachFromProducts(tx: Db, caller: Caller, categoryId: string, baseUrl: string): Promise<void> {
  const locked = await lockProductsInCategory(tx, caller.organizationId, categoryId);
  const before = new Map<string, Awaited<ReturnType<typeof readProduct>>['record']>();
  for (const productId of locked) before.set(productId, (await readProduct(tx, caller, productId, baseUrl)).record);
  for (const productId of await detachCategory(tx, categoryId)) {
    await recordProductState(tx, caller, productId, productUpdatedEvent, baseUrl, before.get(productId));
  }
}
