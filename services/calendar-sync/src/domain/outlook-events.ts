import { DateTime } from 'luxon';
import type { Interval } from './busy-windows.js';
import type { OwnEvents } from './own-busy-time.js';
import { OWN_EVENT_MARKS } from './own-events.js';

/** The fields of a Microsoft Graph `event` that decide busy time (`$select`ed in the calendarView request). */
export interface GraphEvent {
  id?: string | null;
  showAs?: string | null;
  isAllDay?: boolean | null;
  isCancelled?: boolean | null;
  start?: { dateTime?: string | null; timeZone?: string | null } | null;
  end?: { dateTime?: string | null; timeZone?: string | null } | null;
  /** Only what `GRAPH_SCHEDULE_MARK_EXPAND` asks for: the schedule mark of an event this service wrote. */
  singleValueExtendedProperties?: { id?: string | null; value?: string | null }[] | null;
}

export const GRAPH_EVENT_FIELDS = ['id', 'showAs', 'isAllDay', 'isCancelled', 'start', 'end'];

/** The `$expand` that brings our schedule mark along with each event (a server that ignores it sends none). */
export const GRAPH_SCHEDULE_MARK_EXPAND = `singleValueExtendedProperties($filter=id eq '${OWN_EVENT_MARKS.graphScheduleId}')`;

/**
 * The events that are not own events of `own.scheduleId`: neither one whose id this service recorded for a booking
 * of the schedule, nor one carrying the schedule's mark (written for it, e.g. by an insert whose answer was lost).
 * Ids are matched whatever name the row gives the calendar: Graph's event ids are unique in a mailbox, and `primary`
 * (`/me/events`) is the same calendar as its own id. Events of other schedules, marked or not, stay.
 */
export function withoutOwnEvents(events: readonly GraphEvent[], own: OwnEvents): GraphEvent[] {
  const ownIds = new Set(own.events.flatMap((event) => (event.eventId === null ? [] : [event.eventId])));
  const schedule = own.scheduleId.toLowerCase();
  return events.filter((event) => {
    if (event.id && ownIds.has(event.id)) return false;
    return !(event.singleValueExtendedProperties ?? []).some(
      (property) =>
        property.id?.toLowerCase() === OWN_EVENT_MARKS.graphScheduleId.toLowerCase() && property.value?.toLowerCase() === schedule,
    );
  });
}

/** `free`, `workingElsewhere` and `unknown` leave the time bookable. */
const BLOCKING = new Set(['busy', 'tentative', 'oof']);

/**
 * Busy windows of Outlook events. Timed events arrive in the zone we asked for (`Prefer: outlook.timezone="UTC"`);
 * all-day events are floating dates that Graph does not convert, so their dates are read in `zone` (the
 * schedule's time zone): an all-day event blocks that whole local day, DST-correct.
 */
export function outlookBusyWindows(events: readonly GraphEvent[], zone: string): Interval[] {
  const windows: Interval[] = [];
  for (const event of events) {
    if (event.isCancelled || !BLOCKING.has((event.showAs ?? '').toLowerCase())) continue;
    const window = event.isAllDay ? allDayWindow(event, zone) : timedWindow(event);
    if (window) windows.push(window);
  }
  return windows;
}

function timedWindow(event: GraphEvent): Interval | null {
  const start = instant(event.start);
  const end = instant(event.end);
  return start && end && end > start ? { start, end } : null;
}

function allDayWindow(event: GraphEvent, zone: string): Interval | null {
  const startDate = event.start?.dateTime?.slice(0, 10);
  const endDate = event.end?.dateTime?.slice(0, 10);
  if (!startDate || !endDate) return null;
  const start = DateTime.fromISO(startDate, { zone }).startOf('day');
  // An all-day event's end is the midnight after its last day; one with the same date covers that day.
  let end = DateTime.fromISO(endDate, { zone }).startOf('day');
  if (end <= start) end = start.plus({ days: 1 });
  return start.isValid && end.isValid ? { start: start.toJSDate(), end: end.toJSDate() } : null;
}

/** A Graph dateTimeTimeZone (`2026-03-08T09:00:00.0000000` + zone name) as an instant. */
function instant(value: GraphEvent['start']): Date | null {
  if (!value?.dateTime) return null;
  const hasOffset = /(Z|[+-]\d{2}:\d{2})$/.test(value.dateTime);
  const zoneName = value.timeZone && value.timeZone !== 'UTC' ? value.timeZone : 'UTC';
  const parsed = DateTime.fromISO(value.dateTime, { zone: hasOffset ? undefined : zoneName, setZone: hasOffset });
  // A Windows zone name that luxon does not know: we asked Graph for UTC, so read it as UTC.
  const result = parsed.isValid ? parsed : DateTime.fromISO(value.dateTime, { zone: 'UTC' });
  return result.isValid ? result.toJSDate() : null;
}
