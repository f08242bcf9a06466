import { Availability, type Interval, type ScheduleRules } from './availability.js';
import { FreeTimeCursor, mergeBlockers } from './blockers.js';
import { MINUTE_MS } from './time.js';

export type Unavailability = 'outside_availability' | 'minimum_notice' | 'calendar_busy';

export interface AvailabilityQuestion {
  now: number;
  rules: ScheduleRules;
  /** Calendar busy windows near the interval (bookings are the bookings service's own check). */
  busy: readonly Interval[];
  start: number;
  end: number;
}

/** Why [start, end) cannot be booked, or null when it can: inside availability, past the notice, clear of busy time. */
export function whyUnavailable({ now, rules, busy, start, end }: AvailabilityQuestion): Unavailability | null {
  if (end <= start || !new Availability(rules).covers(start, end)) return 'outside_availability';
  if (start < now + rules.minimumNotice * MINUTE_MS) return 'minimum_notice';
  if (!new FreeTimeCursor(mergeBlockers(busy, rules.bufferBefore, rules.bufferAfter)).isFree(start, end)) return 'calendar_busy';
  return null;
}
