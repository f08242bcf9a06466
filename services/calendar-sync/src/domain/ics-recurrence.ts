import ICAL from 'ical.js';
import { localOf, zoneOfTime, type LocalTime, type WallClockZone } from './ics-zones.js';

/** One occurrence's start, as a wall-clock time in the zone of the event's DTSTART (a date for all-day events). */
export interface OccurrenceStart {
  local: LocalTime;
  isDate: boolean;
}

/** A DATE or DATE-TIME property value with the zone its TZID (or `Z`, or nothing: floating) names. */
export function timeOf(property: ICAL.Property, value: ICAL.Time, floating: WallClockZone) {
  const tzid = property.getParameter('tzid');
  return { time: value, zone: zoneOfTime(value, typeof tzid === 'string' ? tzid : null, floating) };
}

export interface ExpansionLimits {
  /** Occurrences starting before this are skipped (the caller allows for the event's length). */
  from: Date;
  /** Occurrences are generated until one starts after this instant. */
  until: Date;
  /** Occurrences kept per event at most, between `from` and `until` (a rule without end cannot run away). */
  maxOccurrences: number;
}

/**
 * Steps of one rule's iterator at most, from DTSTART on: a daily event since 1753, an hourly one for 11 years, reach
 * today within it; a rule that needs more (minutely since long ago) is cut off there.
 */
const MAX_STEPS = 100_000;

/**
 * The starts of an event's recurrence set within the limits: DTSTART, its RRULEs (ical.js's iterator, run on wall-clock
 * times so each occurrence keeps its local time across DST) and RDATEs, in the DTSTART's zone. EXDATEs and
 * RECURRENCE-ID overrides are the caller's (they are matched by instant, whatever zone they are written in).
 */
export function occurrenceStarts(event: ICAL.Component, zone: WallClockZone, limits: ExpansionLimits): OccurrenceStart[] {
  const dtstart = event.getFirstPropertyValue('dtstart') as ICAL.Time;
  const start = ICAL.Time.fromData({ ...localOf(dtstart), isDate: dtstart.isDate });
  // Bounds as wall-clock numbers of the event's zone, a day wider on each side (DST, all-day dates in another zone):
  // the iteration compares numbers, and only starts inside are converted to instants.
  const low = wallClock(zone.toLocal(limits.from)) - DAY_MS;
  const high = wallClock(zone.toLocal(limits.until)) + DAY_MS;
  const seen = new Map<string, OccurrenceStart>();
  const add = (local: LocalTime) => {
    const at = wallClock(local);
    if (at >= low && at <= high && seen.size < limits.maxOccurrences)
      seen.set(keyOf(local, dtstart.isDate), { local, isDate: dtstart.isDate });
  };
  add(localOf(start));
  for (const property of event.getAllProperties('rrule')) {
    const iterator = wallClockRule(property.getFirstValue() as ICAL.Recur, dtstart, zone).iterator(start);
    for (let steps = 0; steps < MAX_STEPS && seen.size < limits.maxOccurrences; steps += 1) {
      const next = iterator.next();
      if (!next || wallClock(next) > high) break;
      add(localOf(next));
    }
  }
  for (const property of event.getAllProperties('rdate')) {
    for (const value of property.getValues() as (ICAL.Time | ICAL.Period)[]) {
      const time = value instanceof ICAL.Period ? value.start : value;
      add(dtstart.isDate ? localOf(time) : zone.toLocal(timeOf(property, time, zone).zone.toInstant(localOf(time))));
    }
  }
  return [...seen.values()];
}

/** A wall-clock time as a number that orders like it (milliseconds as if it were UTC). */
function wallClock(local: LocalTime): number {
  return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
}

const DAY_MS = 86_400_000;

/** The same rule with UNTIL as a wall-clock time of the event's zone, as the iterator compares it with the starts. */
function wallClockRule(rule: ICAL.Recur, dtstart: ICAL.Time, zone: WallClockZone): ICAL.Recur {
  const copy = rule.clone();
  const until = rule.until;
  if (!until) return copy;
  if (dtstart.isDate) {
    copy.until = ICAL.Time.fromData({ year: until.year, month: until.month, day: until.day, isDate: true });
  } else if (until.isDate) {
    copy.until = ICAL.Time.fromData({ year: until.year, month: until.month, day: until.day, hour: 23, minute: 59, second: 59 });
  } else if (until.zone === ICAL.Timezone.utcTimezone) {
    const utc = Date.UTC(until.year, until.month - 1, until.day, until.hour, until.minute, until.second);
    copy.until = ICAL.Time.fromData({ ...zone.toLocal(new Date(utc)), isDate: false });
  } else {
    copy.until = ICAL.Time.fromData({ ...localOf(until), isDate: false });
  }
  return copy;
}

/** Identifies one occurrence: its instant for timed events, its date for all-day ones. */
export function keyOf(local: LocalTime, isDate: boolean, zone?: WallClockZone): string {
  const date = `${local.year}-${local.month}-${local.day}`;
  if (isDate) return date;
  return zone ? String(zone.toInstant(local).getTime()) : `${date}T${local.hour}:${local.minute}:${local.second}`;
}
