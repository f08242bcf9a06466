import type { Interval } from './busy-windows.js';

const DAY_MS = 24 * 60 * 60_000;

/** How far ahead a sync reads: the slot generator serves at most 62 days. */
const SYNC_HORIZON_DAYS = 62;

/** now (to the minute, so consecutive syncs line up) .. now + 62 days. */
export function syncRange(now: Date, days = SYNC_HORIZON_DAYS): Interval {
  const start = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  return { start, end: new Date(start.getTime() + days * DAY_MS) };
}

/** `range` cut into consecutive pieces of at most `maxDays` (Google freeBusy answers at most 90 days per query). */
export function chunkRange(range: Interval, maxDays: number): Interval[] {
  const chunks: Interval[] = [];
  for (let start = range.start.getTime(); start < range.end.getTime(); start += maxDays * DAY_MS) {
    chunks.push({ start: new Date(start), end: new Date(Math.min(start + maxDays * DAY_MS, range.end.getTime())) });
  }
  return chunks;
}

/** `items` in groups of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}
