import type { TokenBox } from './calendar-reader.js';
export interface ProviderEventInput {
  bookingId: string; scheduleId: string;
  start: string; end: string;            // ISO instants (UTC)
  summary: string;                       // the title, else `Booking: <attendee_name>`
  attendeeEmail: string | null;
}
export interface WriteTarget { tokens: TokenBox; calendarId: string; signal: AbortSignal }
export interface CalendarWriter {
  /** The event this service wrote for the booking in that calendar, if any: the idempotency the providers lack. */
  findByBookingId(target: WriteTarget, bookingId: string): Promise<string | null>;
  insert(target: WriteTarget, event: ProviderEventInput): Promise<string>;   // returns the provider event id
  /** Returns false when the event is gone at the provider (404/410), so the caller inserts anew. */
  update(target: WriteTarget, eventId: string, event: ProviderEventInput): Promise<boolean>;
  /** A 404/410 counts as done. */
  remove(target: WriteTarget, eventId: string): Promise<void>;
}
