import type { BookingState, OAuthCalendarProvider } from '@app/contracts';

export type Desired = 'present' | 'absent';
export type WriteStatus = 'pending' | 'synced' | 'failed';

/** What a booking's newest state asks of its provider event: there or not, and with what in it. */
export interface BookingWrite {
  bookingId: string;
  scheduleId: string;
  organizationId: string;
  bookingVersion: number;
  desired: Desired;
  start: Date;
  end: Date;
  summary: string;
  attendeeEmail: string | null;
}

/** A PENDING or CONFIRMED booking has its event; any other status (cancelled, completed, no-show) has none. */
const WRITTEN_STATUSES = new Set(['PENDING', 'CONFIRMED']);

/** The write a booking event asks for. An event from before events carried the record has no title or attendee. */
export function bookingWriteOf(organizationId: string, state: BookingState): BookingWrite {
  const record = state.record;
  return {
    bookingId: state.booking_id.toLowerCase(),
    scheduleId: state.schedule_id.toLowerCase(),
    organizationId,
    bookingVersion: state.version,
    desired: WRITTEN_STATUSES.has(state.status) ? 'present' : 'absent',
    start: new Date(state.start_time),
    end: new Date(state.end_time),
    summary: record?.title || (record ? `Booking: ${record.attendee_name}` : 'Booking'),
    attendeeEmail: record?.attendee_email || null,
  };
}

/** The columns of a calendar_writes row the decisions read. */
export interface StoredWrite {
  connectionId: string;
  bookingId: string;
  organizationId: string;
  scheduleId: string;
  calendarId: string;
  bookingVersion: number;
  desired: Desired;
  startTime: Date;
  endTime: Date;
  summary: string;
  attendeeEmail: string | null;
  eventId: string | null;
  status: WriteStatus;
  lastError: string | null;
  retryNotBefore: Date | null;
  version: number;
}

/** What a booking event does to one connection's row. */
export type BookingChangePlan =
  /** An older (or the same) booking version: nothing. */
  | { kind: 'stale' }
  /** A first row: work to do when the booking is to be written; none when it is not (the row only keeps its version). */
  | { kind: 'insert'; due: boolean }
  /** Nothing the provider event shows changed: only the booking version moves. */
  | { kind: 'version_only' }
  /** The provider must change: the row is pending again (published when the shown state changes). */
  | { kind: 'pending'; publish: boolean };

export function planBookingChange(existing: StoredWrite | null, next: BookingWrite): BookingChangePlan {
  if (!existing) return { kind: 'insert', due: next.desired === 'present' };
  if (existing.bookingVersion >= next.bookingVersion) return { kind: 'stale' };
  const same =
    existing.desired === next.desired &&
    existing.startTime.getTime() === next.start.getTime() &&
    existing.endTime.getTime() === next.end.getTime() &&
    existing.summary === next.summary &&
    existing.attendeeEmail === next.attendeeEmail;
  if (same) return { kind: 'version_only' };
  return { kind: 'pending', publish: existing.status !== 'pending' || existing.lastError !== null };
}

/** What the booking record shows of a row (its `calendar_event`), and the event that carries it. */
export interface ShownWriteState {
  eventId: string | null;
  status: WriteStatus;
  lastError: string | null;
}

export const shownStateChanged = (before: ShownWriteState, after: ShownWriteState) =>
  before.eventId !== after.eventId || before.status !== after.status || before.lastError !== after.lastError;

/** calendar.booking_event.changed's data for a row in its new state. */
export function bookingCalendarEventOf(row: StoredWrite, provider: OAuthCalendarProvider) {
  return {
    booking_id: row.bookingId,
    schedule_id: row.scheduleId,
    connection_id: row.connectionId,
    provider,
    event_id: row.eventId,
    status: row.status,
    last_error: row.lastError,
    version: row.version,
  };
}
