import { Availability, type Interval, type ScheduleRules } from './availability.js';
import { FreeTimeCursor, mergeBlockers } from './blockers.js';
import { DAY_MS, MINUTE_MS } from './time.js';

export type Unavailability = 'outside_availability' | 'minimum_notice' | 'beyond_horizon' | 'calendar_busy';

export interface AvailabilityQuestion {
  now: number;
  rules: ScheduleRules;
  /** Calendar busy windows near the interval (bookings are the bookings service's own check). */
  busy: readonly Interval[];
  start: number;
  end: number;
  /** booking_horizon_days: nothing starts later than now + this many days (null: no horizon). */
  horizonDays?: number | null | undefined;
}

/** Why [start, end) cannot be booked, or null when it can: inside availability, past the notice, within the horizon, clear of busy time. */
export function whyUnavailable({ now, rules, busy, start, end, horizonDays }: AvailabilityQuestion): Unavailability | null {
  if (end <= start || !new Availability(rules).covers(start, end)) return 'outside_availability';
  if (start < now + rules.minimumNotice * MINUTE_MS) return 'minimum_notice';
  if (horizonDays != null && start > now + horizonDays * DAY_MS) return 'beyond_horizon';
  if (!new FreeTimeCursor(mergeBlockers(busy, rules.bufferBefore, rules.bufferAfter)).isFree(start, end)) return 'calendar_busy';
  return null;
}
