import { subtractIntervals, type Interval } from './busy-windows.js';

/**
 * An event this service wrote (or may have written) for a booking of the schedule being synced: a row of
 * calendar_writes with that schedule, of a connection of the same provider, whose provider event is not yet
 * confirmed deleted. It is read back from the provider like any event, and must not block its own schedule.
 */
export interface OwnEvent {
  /** The calendar it was written to (`primary` as the connection named it). */
  calendarId: string;
  /** The provider's event id; null while the insert is not confirmed. */
  eventId: string | null;
  start: Date;
  end: Date;
}

/** What a sync knows about the events it wrote for its own schedule. */
export interface OwnEvents {
  scheduleId: string;
  events: readonly OwnEvent[];
}

/**
 * A calendar's busy windows without the time of the own events written to it (`onlyUnknownIds`: only those whose
 * provider id is not known yet, for a reader that drops the known ones by id).
 *
 * Cutting intervals instead of dropping events is for a reader that cannot tell events apart (Google's freeBusy
 * merges every event of the calendar into windows). It is correct for the own schedule although it also cuts the
 * part of any other event that overlaps an own event: an own event's interval is its booking's, and the booking
 * itself blocks exactly that interval for this schedule while it is PENDING or CONFIRMED; once it is cancelled the
 * write-back deletes its event, and when the deletion is confirmed the row stops counting here, so other events block
 * that time again (until then it stays cut, other events' overlap included, for as long as the deletion takes). Another
 * schedule reading the same calendar has no own events there and keeps every window. (While a reschedule's update
 * is still pending the event sits at its old time, which then blocks until the update lands: the safe side.)
 */
export function withoutOwnTime(windows: readonly Interval[], own: OwnEvents, calendarId: string, onlyUnknownIds = false): Interval[] {
  const cuts = own.events.filter((event) => event.calendarId === calendarId && (!onlyUnknownIds || event.eventId === null));
  return cuts.length === 0 ? [...windows] : subtractIntervals(windows, cuts);
}
