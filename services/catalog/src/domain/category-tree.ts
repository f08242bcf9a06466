import { MAX_CATEGORY_LEVELS } from '@app/contracts';

/**
 * The tree rules of API.md "Variants, inventory and categories": at most MAX_CATEGORY_LEVELS levels (a root is level
 * 1), checked on create and on a move, where the moved category brings its whole subtree along.
 */

/** The deepest level a subtree of `height` (a leaf: 0) reaches once its top is a child of a category at `parentLevel` (null: a root). */
export function deepestLevelUnder(parentLevel: number | null, height: number): number {
  return (parentLevel ?? 0) + 1 + height;
}

export function fitsDepth(parentLevel: number | null, height: number): boolean {
  return deepestLevelUnder(parentLevel, height) <= MAX_CATEGORY_LEVELS;
}

export const TOO_DEEP_MESSAGE = `parent_id would make the category tree deeper than ${MAX_CATEGORY_LEVELS} levels`;
export const UNKNOWN_PARENT_MESSAGE = 'parent_id is not a category of this organization';
export const CYCLE_MESSAGE = 'A category cannot be moved under itself or one of its descendants';
export const NOT_EMPTY_MESSAGE = 'The category has child categories; move or delete them first';
