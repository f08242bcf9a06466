/**
 * Image positions of a product are dense: 0..count-1. A requested position past the end means "last",
 * so every request yields a valid position instead of a gap.
 */

/** Where a new image goes among `count` existing ones: the requested position, at most the end; default the end. */
export function insertPosition(requested: number | undefined, count: number): number {
  if (requested === undefined) return count;
  return Math.min(Math.max(0, requested), count);
}

/** Where a moved image lands among `count` images (itself included). */
export function movePosition(requested: number, count: number): number {
  return Math.min(Math.max(0, requested), Math.max(0, count - 1));
}
