import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OWN_EVENT_MARKS } from '../domain/own-events.js';
import type { CalendarWriter, ProviderEventInput, WriteTarget } from './calendar-writer.js';
import { googleAuthClient, type GoogleSettings } from './google-auth.js';
import { classifyGoogleError } from './google-errors.js';
import { ProviderError } from './provider-errors.js';
import { withRetries } from './provider-retry.js';

/** Google says an event is gone with 404, or 410 once it was deleted. */
const isGone = (error: unknown) => error instanceof ProviderError && (error.status === 404 || error.status === 410);

/**
 * Write-back to Google Calendar v3 with the real client: events.insert / patch / delete, and events.list filtered by
 * the booking id in the event's private extended properties to find what an earlier, timed-out insert made.
 * `sendUpdates: 'none'`: the booking flow tells the attendee itself; Google sends no invitation of its own.
 */
export function googleCalendarWriter(settings: GoogleSettings): CalendarWriter {
  const api = (target: WriteTarget) => calendar({ version: 'v3', auth: googleAuthClient(settings, target.tokens) });
  // Our own retry rules (Retry-After, jitter, reauth) replace gaxios' built-in retries.
  const options = (target: WriteTarget) => ({ rootUrl: settings.apiUrl, retry: false, timeout: settings.timeoutMs, signal: target.signal });
  // Each request is tried `settings.retry.attempts` times (service.ts gives one: the caller retries whole steps).
  const retried = <T>(target: WriteTarget, request: () => Promise<T>, attempts = settings.retry.attempts) =>
    withRetries(request, classifyGoogleError, { ...settings.retry, attempts }, target.signal);
  return {
    async findByBookingId(target, bookingId) {
      const response = await retried(target, () =>
        api(target).events.list(
          {
            calendarId: target.calendarId,
            privateExtendedProperty: [`${OWN_EVENT_MARKS.googleBookingId}=${bookingId}`],
            showDeleted: false,
            maxResults: 10,
          },
          options(target),
        ),
      );
      return response.data.items?.find((event) => event.id && event.status !== 'cancelled')?.id ?? null;
    },

    async insert(target, event) {
      // One try only: a timeout may come after Google made the event, and the caller looks for it before trying again.
      const response = await retried(
        target,
        () =>
          api(target).events.insert({ calendarId: target.calendarId, sendUpdates: 'none', requestBody: eventBody(event) }, options(target)),
        1,
      );
      const id = response.data.id;
      if (!id) throw new ProviderError('Google Calendar answered an insert without an event id');
      return id;
    },

    async update(target, eventId, event) {
      try {
        await retried(target, () =>
          api(target).events.patch(
            { calendarId: target.calendarId, eventId, sendUpdates: 'none', requestBody: eventBody(event) },
            options(target),
          ),
        );
        return true;
      } catch (error) {
        if (isGone(error)) return false;
        throw error;
      }
    },

    async remove(target, eventId) {
      try {
        await retried(target, () =>
          api(target).events.delete({ calendarId: target.calendarId, eventId, sendUpdates: 'none' }, options(target)),
        );
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    },
  };
}

/** The event as write-back keeps it; `confirmed` also brings back one the user deleted meanwhile (Google keeps it cancelled). */
function eventBody(event: ProviderEventInput): calendar_v3.Schema$Event {
  return {
    summary: event.summary,
    start: { dateTime: event.start, timeZone: 'UTC' },
    end: { dateTime: event.end, timeZone: 'UTC' },
    attendees: event.attendeeEmail ? [{ email: event.attendeeEmail }] : [],
    status: 'confirmed',
    extendedProperties: {
      private: { [OWN_EVENT_MARKS.googleBookingId]: event.bookingId, [OWN_EVENT_MARKS.googleScheduleId]: event.scheduleId },
    },
  };
}
