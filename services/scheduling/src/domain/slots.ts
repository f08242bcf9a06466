import type { SlotDay } from '@app/contracts';
import { Availability, type Interval, type ScheduleRules } from './availability.js';
import { FreeTimeCursor, mergeBlockers } from './blockers.js';
import { SeatCursor, seatSteps, type SeatTaker } from './seats.js';
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
  /**
   * Seats per slot above one, with the bookings and active holds that take them (a one-seat schedule passes its
   * bookings and holds as blockers instead: any of them fills a slot, and the sweep stays as cheap as ever).
   */
  seats?: { perSlot: number; takers: readonly SeatTaker[] } | undefined;
  /** The day limit: local days of the schedule's zone (day numbers) that have reached it offer nothing. */
  fullDays?: ReadonlySet<number> | undefined;
  /** Epoch ms after which no slot starts (the booking horizon). */
  latestStart?: number | undefined;
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
  const perSlot = request.seats?.perSlot ?? 1;
  const seats = request.seats && new SeatCursor(seatSteps(request.seats.takers, rules.bufferBefore, rules.bufferAfter));
  const { fullDays } = request;
  const latest = Math.min(to, (request.latestStart ?? Number.POSITIVE_INFINITY) + 1);
  const zone = availability.zone;
  let dayIndex = 0;
  let previous = Number.NEGATIVE_INFINITY;

  for (const interval of availability.intervals(zone.dayOf(from), zone.dayOf(to - 1))) {
    let start = interval.start;
    if (start < earliest) start += Math.ceil((earliest - start) / step) * step; // first grid point in time
    for (; start + duration <= interval.end && start < latest; start += step) {
      // Starts never go back, which the sweep relies on (intervals overlap only around a DST gap).
      if (start <= previous || !free.isFree(start, start + duration)) continue;
      const remaining = seats ? perSlot - seats.mostTaken(start, start + duration) : 1;
      if (remaining < 1 || fullDays?.has(zone.dayOf(start))) continue;
      while (start >= (boundaries[dayIndex + 1] ?? Number.POSITIVE_INFINITY)) dayIndex += 1;
      days[dayIndex]?.slots.push({
        start: isoOf(start),
        end: isoOf(start + duration),
        status: 'available',
        label: labelOf(view.localOf(start).minutes),
        seats_remaining: remaining,
      });
      previous = start;
    }
  }
  return days;
}
