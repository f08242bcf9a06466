import type { Interval } from './availability.js';
import { MINUTE_MS } from './time.js';

/**
 * Busy time (bookings and calendar windows) widened by the schedule's buffers — `before` minutes kept
 * free before each, `after` minutes after — and merged into disjoint intervals sorted by start.
 */
export function mergeBlockers(blockers: readonly Interval[], bufferBefore: number, bufferAfter: number): Interval[] {
  const before = bufferBefore * MINUTE_MS;
  const after = bufferAfter * MINUTE_MS;
  const padded = blockers
    .filter((blocker) => blocker.end > blocker.start)
    .map((blocker) => ({ start: blocker.start - before, end: blocker.end + after }))
    .sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of padded) {
    const last = merged[merged.length - 1];
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push(interval);
  }
  return merged;
}

/**
 * Answers "is [start, end) clear of the blockers?" for queries whose starts never decrease, with one
 * pointer over the merged blockers: the slot sweep is O(slots + blockers), not slots × blockers.
 */
export class FreeTimeCursor {
  private index = 0;

  constructor(private readonly merged: readonly Interval[]) {}

  isFree(start: number, end: number): boolean {
    let blocker = this.merged[this.index];
    while (blocker && blocker.end <= start) {
      this.index += 1;
      blocker = this.merged[this.index];
    }
    return !blocker || blocker.start >= end;
  }
}
