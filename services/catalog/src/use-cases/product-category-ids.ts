import { invalidInput, type Caller } from '@app/service-kit';
import { lockExistingCategories, replaceProductCategories } from '../db/product-categories.repository.js';
import type { Db } from '../db/prisma.js';

/** A product's new `category_ids`, read against the organization's categories (which stay until the transaction ends). */
export interface LockedCategoryIds {
  /** The list to store: the given order, a repeated id once. */
  ids: string[];
  /** Throws the 400 naming the first id that is no category of the organization (its index as sent). */
  requireAll(): void;
}

/** Undefined when the body gives no `category_ids` (the product keeps its categories). */
export async function lockCategoryIds(
  tx: Db,
  caller: Caller,
  given: readonly string[] | undefined,
): Promise<LockedCategoryIds | undefined> {
  if (given === undefined) return undefined;
  const lowered = given.map((id) => id.toLowerCase());
  const ids = [...new Set(lowered)];
  const existing = await lockExistingCategories(tx, caller.organizationId, ids);
  return {
    ids,
    requireAll() {
      const index = lowered.findIndex((id) => !existing.has(id));
      if (index === -1) return;
      const path = `category_ids.${index}`;
      throw invalidInput(path, `${path} is not a category of this organization: ${given[index]}`);
    },
  };
}

export async function setProductCategories(
  tx: Db,
  caller: Caller,
  productId: string,
  categoryIds: LockedCategoryIds | undefined,
): Promise<void> {
  if (categoryIds) await replaceProductCategories(tx, caller.organizationId, productId, categoryIds.ids);
}
