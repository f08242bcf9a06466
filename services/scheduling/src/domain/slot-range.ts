import type { Interval } from './availability.js';
import { DAY_MS, type Zone, dateOfDayNumber, dayNumberOf } from './time.js';

/** Default length of a slot range: the end date is this many days after the start date. */
const DEFAULT_RANGE_DAYS = 14;
/** Longest range: the end date at most this many days after the start date. */
const MAX_RANGE_DAYS = 62;

export interface DateQuery {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

export type ResolvedRange = { ok: true; startDate: string; endDate: string } | { ok: false; message: string };

/** The range's dates in `zone`: start defaults to today there, end to start + 14 days; end ≥ start, ≤ 62 days. */
export function resolveRange(query: DateQuery, zone: Zone, now: number): ResolvedRange {
  const startDay = query.startDate ? dayNumberOf(query.startDate) : zone.dayOf(now);
  const endDay = query.endDate ? dayNumberOf(query.endDate) : startDay + DEFAULT_RANGE_DAYS;
  const problem = rangeProblem(startDay, endDay);
  if (problem) return { ok: false, message: problem };
  return { ok: true, startDate: dateOfDayNumber(startDay), endDate: dateOfDayNumber(endDay) };
}

/** The part of the checks that needs no zone: possible as soon as both dates are given. */
export function explicitRangeProblem(query: DateQuery): string | null {
  if (!query.startDate || !query.endDate) return null;
  return rangeProblem(dayNumberOf(query.startDate), dayNumberOf(query.endDate));
}

/**
 * Instants that surely contain the range in any zone (offsets are within ±14 h) plus any buffer (≤ 24 h),
 * so busy time can be read in the same round trip as the schedule, before its zone is known.
 */
export function fetchWindow(query: DateQuery, now: number): Interval {
  const today = Math.floor(now / DAY_MS);
  const first = query.startDate ? dayNumberOf(query.startDate) : today - 1;
  const requestedLast = query.endDate ? dayNumberOf(query.endDate) : (query.startDate ? first : today + 1) + DEFAULT_RANGE_DAYS;
  // Never an empty or reversed window, even for a range that resolveRange will refuse (an end date long
  // before today with no start date): the query runs before the zone is known, and Postgres rejects a
  // range whose lower bound exceeds its upper.
  const last = Math.max(first, Math.min(requestedLast, first + MAX_RANGE_DAYS + 2));
  return { start: (first - 2) * DAY_MS, end: (last + 3) * DAY_MS };
}

function rangeProblem(startDay: number, endDay: number): string | null {
  if (endDay < startDay) return 'endDate must not be before startDate';
  if (endDay - startDay > MAX_RANGE_DAYS) return `endDate must be at most ${MAX_RANGE_DAYS} days after startDate`;
  return null;
}
