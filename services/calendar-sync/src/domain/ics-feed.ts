import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { clipIntervals, type Interval } from './busy-windows.js';
import { keyOf, occurrenceStarts, timeOf, type OccurrenceStart } from './ics-recurrence.js';
import { ianaZone, localOf, type WallClockZone } from './ics-zones.js';

/** The feed is no iCalendar document: the sync fails with this as its `last_error`. */
export class IcsParseError extends Error {}

export interface IcsReadOptions {
  /** The windows wanted: occurrences overlapping it. */
  range: Interval;
  /** The schedule's zone: all-day (DATE) events block its local days, floating times are read in it. */
  timeZone: string;
  maxOccurrencesPerEvent: number;
}

/**
 * The busy windows of an iCalendar feed within `range`. Every VEVENT blocks its time unless it is
 * `TRANSP:TRANSPARENT` or `STATUS:CANCELLED`. VEVENTs are grouped by UID: the one without RECURRENCE-ID is the
 * series (RRULE, RDATE, EXDATE), the others replace the occurrence their RECURRENCE-ID names (a cancelled or
 * transparent override frees it). Overrides with RANGE=THISANDFUTURE replace only their own occurrence.
 */
export function icsBusyWindows(text: string, options: IcsReadOptions): Interval[] {
  const floating = ianaZone(options.timeZone);
  const windows: Interval[] = [];
  for (const group of eventsByUid(parseCalendars(text))) {
    const replaced = new Set<string>();
    for (const override of group.overrides) {
      const id = override.getFirstProperty('recurrence-id');
      const value = id?.getFirstValue();
      if (id && value instanceof ICAL.Time) replaced.add(occurrenceKey(timeOf(id, value, floating)));
      if (blocks(override)) windows.push(...eventWindows(override, floating, options, new Set()));
    }
    if (group.master && blocks(group.master)) windows.push(...eventWindows(group.master, floating, options, replaced));
  }
  return clipIntervals(windows, options.range);
}

function parseCalendars(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (error) {
    throw new IcsParseError(`The feed is not valid iCalendar: ${error instanceof Error ? error.message : String(error)}`);
  }
  // One VCALENDAR parses to one component, several to a list of them.
  const list = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
  const calendars = list.map((jcal) => new ICAL.Component(jcal as unknown[])).filter((c) => c.name === 'vcalendar');
  if (calendars.length === 0) throw new IcsParseError('The feed is not valid iCalendar: it has no VCALENDAR');
  return calendars;
}

interface EventGroup {
  master: ICAL.Component | undefined;
  overrides: ICAL.Component[];
}

function eventsByUid(calendars: ICAL.Component[]): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  let anonymous = 0;
  for (const event of calendars.flatMap((calendar) => calendar.getAllSubcomponents('vevent'))) {
    if (!(event.getFirstPropertyValue('dtstart') instanceof ICAL.Time)) continue; // no start: nothing to block
    const uid = event.getFirstPropertyValue('uid');
    const key = typeof uid === 'string' && uid !== '' ? `uid:${uid}` : `anonymous:${(anonymous += 1)}`;
    const group = groups.get(key) ?? { master: undefined, overrides: [] };
    if (event.hasProperty('recurrence-id')) group.overrides.push(event);
    else group.master ??= event;
    groups.set(key, group);
  }
  return [...groups.values()];
}

function blocks(event: ICAL.Component): boolean {
  const transp = String(event.getFirstPropertyValue('transp') ?? '').toUpperCase();
  const status = String(event.getFirstPropertyValue('status') ?? '').toUpperCase();
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED';
}

/** An occurrence's identity for EXDATE and RECURRENCE-ID: its date for all-day events, else its instant. */
function occurrenceKey({ time, zone }: { time: ICAL.Time; zone: WallClockZone }): string {
  return keyOf(localOf(time), time.isDate, zone);
}

/** The windows of one VEVENT's occurrences, less its EXDATEs and the occurrences that overrides replace. */
function eventWindows(event: ICAL.Component, floating: WallClockZone, options: IcsReadOptions, replaced: Set<string>): Interval[] {
  const dtstartProperty = event.getFirstProperty('dtstart') as ICAL.Property;
  const dtstart = timeOf(dtstartProperty, dtstartProperty.getFirstValue() as ICAL.Time, floating);
  const excluded = new Set(replaced);
  for (const property of event.getAllProperties('exdate')) {
    for (const value of property.getValues() as ICAL.Time[]) excluded.add(occurrenceKey(timeOf(property, value, floating)));
  }
  const length = lengthOf(event, dtstart);
  // An occurrence that starts before the range can still reach into it: look back by its length.
  const lookBackMs = length.days * 86_400_000 + Math.max(0, length.exactMs);
  const starts = occurrenceStarts(event, dtstart.zone, {
    from: new Date(options.range.start.getTime() - lookBackMs),
    until: options.range.end,
    maxOccurrences: options.maxOccurrencesPerEvent,
  });
  const windows: Interval[] = [];
  for (const start of starts) {
    if (excluded.has(keyOf(start.local, start.isDate, dtstart.zone))) continue;
    const window = start.isDate ? allDayWindow(start, length.days, options.timeZone) : timedWindow(start, length, dtstart.zone);
    if (window.end > options.range.start && window.start < options.range.end) windows.push(window);
  }
  return windows;
}

/** How long each occurrence is: DTEND − DTSTART exactly (RFC 5545), or DURATION (days nominal, the rest exact). */
interface EventLength {
  days: number;
  exactMs: number;
}

function lengthOf(event: ICAL.Component, dtstart: { time: ICAL.Time; zone: WallClockZone }): EventLength {
  const endProperty = event.getFirstProperty('dtend');
  const end = endProperty?.getFirstValue();
  if (endProperty && end instanceof ICAL.Time) {
    if (dtstart.time.isDate) return { days: Math.max(1, daysBetween(dtstart.time, end)), exactMs: 0 };
    const exactMs = timeOf(endProperty, end, dtstart.zone).zone.toInstant(localOf(end)).getTime();
    return { days: 0, exactMs: exactMs - dtstart.zone.toInstant(localOf(dtstart.time)).getTime() };
  }
  const duration = event.getFirstPropertyValue('duration');
  if (duration instanceof ICAL.Duration && !duration.isNegative) {
    const days = duration.weeks * 7 + duration.days;
    const exactMs = ((duration.hours * 60 + duration.minutes) * 60 + duration.seconds) * 1000;
    return dtstart.time.isDate ? { days: Math.max(1, days), exactMs: 0 } : { days, exactMs };
  }
  // RFC 5545: a DATE start alone lasts that day; a DATE-TIME start alone is an instant (it blocks nothing).
  return { days: dtstart.time.isDate ? 1 : 0, exactMs: 0 };
}

function daysBetween(start: ICAL.Time, end: ICAL.Time): number {
  return Math.round((Date.UTC(end.year, end.month - 1, end.day) - Date.UTC(start.year, start.month - 1, start.day)) / 86_400_000);
}

/** An all-day event blocks whole local days of the schedule's zone (as Outlook's all-day events do). */
function allDayWindow(start: OccurrenceStart, days: number, timeZone: string): Interval {
  const { year, month, day } = start.local;
  const first = DateTime.fromObject({ year, month, day }, { zone: timeZone }).startOf('day');
  return { start: first.toJSDate(), end: first.plus({ days }).startOf('day').toJSDate() };
}

function timedWindow(start: OccurrenceStart, length: EventLength, zone: WallClockZone): Interval {
  const begin = zone.toInstant(start.local);
  if (length.days === 0) return { start: begin, end: new Date(begin.getTime() + length.exactMs) };
  // Days of a DURATION are nominal: the same wall-clock time that many days later, then the exact part.
  const { year, month, day, hour, minute, second } = start.local;
  const later = new Date(Date.UTC(year, month - 1, day + length.days, hour, minute, second));
  const dayLater = { ...start.local, year: later.getUTCFullYear(), month: later.getUTCMonth() + 1, day: later.getUTCDate() };
  return { start: begin, end: new Date(zone.toInstant(dayLater).getTime() + length.exactMs) };
}
