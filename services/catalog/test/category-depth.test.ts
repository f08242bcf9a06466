import { describe, expect, it } from 'vitest';
import { deepestLevelUnder, fitsDepth } from '../src/domain/category-tree.js';

describe('category depth rule', () => {
  it.each([
    // parent level (null: a root), subtree height, deepest level, fits
    [null, 0, 1, true],
    [null, 4, 5, true],
    [4, 0, 5, true],
    [5, 0, 6, false],
    [2, 2, 5, true],
    [3, 2, 6, false],
    [1, 4, 6, false],
  ] as const)(
    'when the parent is at level %s and the subtree of height %s goes under it, then its deepest node is at level %s',
    (parent, height, deepest, fits) => {
      expect(deepestLevelUnder(parent, height)).toBe(deepest);
      expect(fitsDepth(parent, height)).toBe(fits);
    },
  );
});
