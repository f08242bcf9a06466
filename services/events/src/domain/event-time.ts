import { IANAZone } from 'luxon';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The local fields of an event, as the client gave them. */
export interface LocalEventTime {
  startDate: string;
  startTime: string | null;
  endTime: string | null;
  timezone: string;
}

export interface EventInstants {
  startsAt: Date;
  endsAt: Date | null;
}

/**
 * The UTC instants of an event, by the rules of RFC 5545 (API.md): no start time is local midnight;
 * no end time is no end; an end time at or before the start time is on the next day.
 */
export function eventInstants(local: LocalEventTime): EventInstants {
  const startTime = local.startTime ?? '00:00';
  const startsAt = localToUtc(local.startDate, startTime, local.timezone);
  if (local.endTime === null) return { startsAt, endsAt: null };
  // Wall-clock times compare as strings (HH:MM); the instants may not, across a DST change.
  const endDate = local.endTime <= startTime ? nextDate(local.startDate) : local.startDate;
  return { startsAt, endsAt: localToUtc(endDate, local.endTime, local.timezone) };
}

/**
 * The instant of a local date and time `HH:MM` in an IANA zone. A time that occurs twice (fall-back)
 * is its first occurrence; a time that does not exist (spring-forward gap) is read with the offset in
 * force before the gap, which lands it as far past the gap's start as it was meant to be.
 */
export function localToUtc(date: string, time: string, timezone: string): Date {
  const zone = IANAZone.create(timezone);
  if (!zone.isValid) throw new RangeError(`Unknown time zone ${timezone}`);
  const wall = wallClockMillis(date, time);
  // Zone offsets change at most once within a day or so of any wall time, so the offsets a day before
  // and a day after are the only candidates.
  const before = zone.offset(wall - DAY);
  const after = zone.offset(wall + DAY);
  const occurrences = [...new Set([before, after])]
    .map((offset) => wall - offset * MINUTE)
    .filter((instant) => wall - zone.offset(instant) * MINUTE === instant);
  if (occurrences.length > 0) return new Date(Math.min(...occurrences));
  return new Date(wall - before * MINUTE);
}

/** The calendar date after `date` (YYYY-MM-DD). */
export function nextDate(date: string): string {
  return new Date(wallClockMillis(date, '00:00') + DAY).toISOString().slice(0, 10);
}

/** A local date and time read as if it were UTC: the "wall clock" in milliseconds. */
function wallClockMillis(date: string, time: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  return Date.UTC(year ?? NaN, (month ?? NaN) - 1, day ?? NaN, hour ?? NaN, minute ?? NaN);
}
