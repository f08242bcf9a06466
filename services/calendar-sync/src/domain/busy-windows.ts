/** A half-open interval of UTC instants [start, end). */
export interface Interval {
  start: Date;
  end: Date;
}

/** Sorted, with overlapping or touching intervals joined, and empty ones dropped. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end.getTime() > i.start.getTime()).sort((a, b) => a.start.getTime() - b.start.getTime());
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start.getTime() <= last.end.getTime()) {
      if (interval.end.getTime() > last.end.getTime()) last.end = interval.end;
    } else {
      merged.push({ start: interval.start, end: interval.end });
    }
  }
  return merged;
}

/** The parts of `intervals` inside `range`. */
export function clipIntervals(intervals: readonly Interval[], range: Interval): Interval[] {
  const clipped: Interval[] = [];
  for (const interval of intervals) {
    const start = Math.max(interval.start.getTime(), range.start.getTime());
    const end = Math.min(interval.end.getTime(), range.end.getTime());
    if (end > start) clipped.push({ start: new Date(start), end: new Date(end) });
  }
  return clipped;
}

/**
 * `intervals` without the time of `removed`: each interval is cut around every removed one (half-open, so a removed
 * interval that only touches one leaves it whole). The pieces keep the order of `intervals`.
 */
export function subtractIntervals(intervals: readonly Interval[], removed: readonly Interval[]): Interval[] {
  const cuts = mergeIntervals(removed);
  const pieces: Interval[] = [];
  for (const interval of intervals) {
    let start = interval.start.getTime();
    const end = interval.end.getTime();
    for (const cut of cuts) {
      if (start >= end || cut.start.getTime() >= end) break;
      if (cut.end.getTime() <= start) continue;
      if (cut.start.getTime() > start) pieces.push({ start: new Date(start), end: cut.start });
      start = cut.end.getTime();
    }
    if (end > start) pieces.push({ start: new Date(start), end: new Date(end) });
  }
  return pieces;
}

/** The busy windows of a connection within `range`: every calendar's windows, clipped and merged. */
export function connectionWindows(perCalendar: readonly (readonly Interval[])[], range: Interval): Interval[] {
  return mergeIntervals(clipIntervals(perCalendar.flat(), range));
}

export function toIsoWindow(interval: Interval): { start: string; end: string } {
  return { start: interval.start.toISOString(), end: interval.end.toISOString() };
}

/** Parses stored/received `{start, end}` strings; invalid or empty entries are dropped. */
export function fromIsoWindows(windows: readonly { start?: string | null; end?: string | null }[]): Interval[] {
  const intervals: Interval[] = [];
  for (const window of windows) {
    if (!window.start || !window.end) continue;
    const start = new Date(window.start);
    const end = new Date(window.end);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) continue;
    intervals.push({ start, end });
  }
  return intervals;
}
