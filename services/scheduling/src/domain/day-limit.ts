import type { Interval } from './availability.js';
import type { Zone } from './time.js';

/**
 * The local days (day numbers in the schedule's zone, DST-correct) on which `max` bookings and active holds start
 * already: max_bookings_per_day counts what starts on a day, whatever its length or seats.
 */
export function fullDays(takers: readonly Interval[], zone: Zone, max: number): Set<number> {
  const counts = new Map<number, number>();
  const full = new Set<number>();
  for (const taker of takers) {
    const day = zone.dayOf(taker.start);
    const count = (counts.get(day) ?? 0) + 1;
    counts.set(day, count);
    if (count >= max) full.add(day);
  }
  return full;
}

/** The local day of `instant` in `zone` as UTC instants [start, end): 23, 24 or 25 hours long. */
export function localDayOf(instant: number, zone: Zone): Interval {
  const day = zone.dayOf(instant);
  return { start: zone.instantOf(day, 0), end: zone.instantOf(day + 1, 0) };
}
