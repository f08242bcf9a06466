import type { SlotDay } from '@app/contracts';
import { Availability, type Interval, type ScheduleRules } from './availability.js';
import { FreeTimeCursor, mergeBlockers } from './blockers.js';
import { MINUTE_MS, Zone, dateOfDayNumber, dayNumberOf, isoOf, labelOf } from './time.js';

export interface SlotRequest {
  /** Epoch ms of "now": no slot starts before now + minimum notice. */
  now: number;
  rules: ScheduleRules;
  /** Bookings that block (PENDING/CONFIRMED) and calendar busy windows; buffers are applied here. */
  blockers: readonly Interval[];
  /** Local dates in `timezone`, inclusive. */
  startDate: string;
  endDate: string;
  /** The zone the days are grouped and labelled in. */
  timezone: string;
}

/**
 * The available slots of a schedule, one entry per local date of the range in `timezone`. Slots start at
 * the beginning of each availability interval (local to the schedule's zone) and step by slot_interval in
 * elapsed time; a slot is kept when all of it lies in its interval, it starts at or after now + minimum
 * notice, and it overlaps no blocker widened by the buffers. One sweep over the sorted blockers.
 */
export function generateSlots(request: SlotRequest): SlotDay[] {
  const { rules } = request;
  const view = Zone.of(request.timezone);
  const availability = new Availability(rules);
  const firstDay = dayNumberOf(request.startDate);
  const dayCount = dayNumberOf(request.endDate) - firstDay + 1;
  const days: SlotDay[] = [];
  const boundaries: number[] = [];
  for (let i = 0; i <= dayCount; i += 1) {
    boundaries.push(view.instantOf(firstDay + i, 0));
    if (i < dayCount) days.push({ date: dateOfDayNumber(firstDay + i), slots: [] });
  }
  const from = boundaries[0] ?? 0;
  const to = boundaries[dayCount] ?? 0;
  if (to <= from) return days;

  const duration = rules.slotDuration * MINUTE_MS;
  const step = rules.slotInterval * MINUTE_MS;
  const earliest = Math.max(from, request.now + rules.minimumNotice * MINUTE_MS);
  const free = new FreeTimeCursor(mergeBlockers(request.blockers, rules.bufferBefore, rules.bufferAfter));
  const zone = availability.zone;
  let dayIndex = 0;
  let previous = Number.NEGATIVE_INFINITY;

  for (const interval of availability.intervals(zone.dayOf(from), zone.dayOf(to - 1))) {
    let start = interval.start;
    if (start < earliest) start += Math.ceil((earliest - start) / step) * step; // first grid point in time
    for (; start + duration <= interval.end && start < to; start += step) {
      // Starts never go back, which the sweep relies on (intervals overlap only around a DST gap).
      if (start <= previous || !free.isFree(start, start + duration)) continue;
      while (start >= (boundaries[dayIndex + 1] ?? Number.POSITIVE_INFINITY)) dayIndex += 1;
      days[dayIndex]?.slots.push({
        start: isoOf(start),
        end: isoOf(start + duration),
        status: 'available',
        label: labelOf(view.localOf(start).minutes),
      });
      previous = start;
    }
  }
  return days;
}
