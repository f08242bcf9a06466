import { AppError, invalidInput } from '@app/service-kit';
import { isInSubtree, treePlace } from '../db/category-tree.repository.js';
import type { Db } from '../db/prisma.js';
import { CYCLE_MESSAGE, fitsDepth, TOO_DEEP_MESSAGE, UNKNOWN_PARENT_MESSAGE } from '../domain/category-tree.js';

/**
 * The checks of a category's new parent, read under the organization's tree lock (category-tree.repository.ts), so
 * the tree they judge is the one the write changes.
 */

/** `parentId` as the parent of a subtree of `height` (a new category: 0): 400 when unknown or when it would be too deep. */
export async function requireParent(tx: Db, organizationId: string, parentId: string, height: number): Promise<void> {
  const parent = await treePlace(tx, organizationId, parentId);
  if (!parent) throw invalidInput('parent_id', UNKNOWN_PARENT_MESSAGE);
  if (!fitsDepth(parent.level, height)) throw invalidInput('parent_id', TOO_DEEP_MESSAGE);
}

/**
 * `parentId` as the new parent of the category `id` and its subtree (null: a root, always fine): 409 CATEGORY_CYCLE for
 * the category itself or one of its descendants, else as `requireParent` with the subtree's height.
 */
export async function requireParentFor(tx: Db, organizationId: string, id: string, parentId: string | null): Promise<void> {
  if (parentId === null) return;
  if (parentId === id) throw new AppError('CATEGORY_CYCLE', CYCLE_MESSAGE);
  const [parent, own] = [await treePlace(tx, organizationId, parentId), await treePlace(tx, organizationId, id)];
  if (!parent) throw invalidInput('parent_id', UNKNOWN_PARENT_MESSAGE);
  if (await isInSubtree(tx, id, parentId)) throw new AppError('CATEGORY_CYCLE', CYCLE_MESSAGE);
  if (!fitsDepth(parent.level, own?.height ?? 0)) throw invalidInput('parent_id', TOO_DEEP_MESSAGE);
}
