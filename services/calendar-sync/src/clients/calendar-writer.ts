import type { TokenBox } from './calendar-reader.js';

/** The provider event of one booking, as write-back keeps it. */
export interface ProviderEventInput {
  bookingId: string;
  scheduleId: string;
  start: string; // ISO instants (UTC)
  end: string;
  summary: string; // the title, else `Booking: <attendee_name>`
  attendeeEmail: string | null;
}

export interface WriteTarget {
  tokens: TokenBox;
  calendarId: string;
  signal: AbortSignal;
}

/**
 * Write-back at one provider. Failures are the errors of provider-errors.ts, as the readers throw them
 * (ReauthRequiredError, RetryLaterError, ProviderUnavailableError for what a retry may fix, ProviderError), with the
 * tokens refreshed before expiry and once after a 401, as the readers do. `insert` must not retry by itself: a retry
 * after a timeout could make a second event; the caller retries the whole step, `findByBookingId` first.
 */
export interface CalendarWriter {
  /** The event this service wrote for the booking in that calendar, if any: the idempotency the providers lack. */
  findByBookingId(target: WriteTarget, bookingId: string): Promise<string | null>;
  /** Returns the provider event id. */
  insert(target: WriteTarget, event: ProviderEventInput): Promise<string>;
  /** Returns false when the event is gone at the provider (404/410), so the caller inserts anew. */
  update(target: WriteTarget, eventId: string, event: ProviderEventInput): Promise<boolean>;
  /** A 404/410 counts as done. */
  remove(target: WriteTarget, eventId: string): Promise<void>;
}
