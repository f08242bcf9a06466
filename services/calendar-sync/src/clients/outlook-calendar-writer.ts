import type { Client } from '@microsoft/microsoft-graph-client';
import { z } from 'zod';
import { OWN_EVENT_MARKS } from '../domain/own-events.js';
import type { CalendarWriter, ProviderEventInput, WriteTarget } from './calendar-writer.js';
import { classifyMicrosoftError } from './graph-errors.js';
import { TokenSession, graphClient } from './graph-session.js';
import type { OutlookSettings } from './outlook-calendar.client.js';
import { ProviderError } from './provider-errors.js';
import { withRetries } from './provider-retry.js';

/** One Graph request of a write: given the client and the signal (the caller's, with this request's time limit). */
type GraphCall<T> = (client: Client, signal: AbortSignal) => Promise<T>;

const createdSchema = z.looseObject({ id: z.string().min(1) });
const foundSchema = z.looseObject({ value: z.array(z.looseObject({ id: z.string().min(1) })) });

/**
 * Microsoft Graph v1.0 events of the write-back, with the same client, token refresh (before expiry and once after a
 * 401) and retry rules as the reader. Graph has no idempotency key for `POST …/events`, so the booking id travels in
 * the event (`singleValueExtendedProperties`): an insert is tried once, and the caller looks the event up by booking id
 * (findByBookingId) before it tries again.
 */
export function outlookCalendarWriter(settings: OutlookSettings): CalendarWriter {
  return {
    findByBookingId(target, bookingId) {
      return send(settings, target, (client, signal) => findEvent(client, target.calendarId, bookingId, signal));
    },

    insert(target, event) {
      // One try only (a 401 is still refreshed and sent again: Graph made nothing then): a timeout or 5xx may come after
      // Graph made the event, so the caller looks for it by booking id before trying again.
      return send(
        settings,
        target,
        async (client, signal) => {
          const body: unknown = await client.api(eventsPath(target.calendarId)).option('signal', signal).post(graphEvent(event));
          const created = createdSchema.safeParse(body);
          if (!created.success) throw new ProviderError('Microsoft Graph answered a created event without an id');
          return created.data.id;
        },
        1,
      );
    },

    async update(target, eventId, event) {
      try {
        await send(settings, target, (client, signal) => client.api(eventPath(eventId)).option('signal', signal).patch(graphEvent(event)));
        return true;
      } catch (error) {
        if (isGone(error)) return false;
        throw error;
      }
    },

    async remove(target, eventId) {
      try {
        await send(settings, target, (client, signal) => client.api(eventPath(eventId)).option('signal', signal).delete());
      } catch (error) {
        if (!isGone(error)) throw error;
      }
    },
  };
}

/**
 * Runs one request of a write with a token session of its own and the reader's retry rules (`attempts` tries), turning
 * failures into the typed errors of provider-errors.ts (withRetries).
 */
function send<T>(settings: OutlookSettings, target: WriteTarget, call: GraphCall<T>, attempts = settings.retry.attempts): Promise<T> {
  const session = new TokenSession(target.tokens, settings.tokens, settings.retry, target.signal);
  const client = graphClient(settings.graphUrl, target.tokens);
  return withRetries(
    () => session.withAuthRetry(() => call(client, AbortSignal.any([target.signal, AbortSignal.timeout(settings.timeoutMs)]))),
    classifyMicrosoftError,
    { ...settings.retry, attempts },
    target.signal,
  );
}

async function findEvent(client: Client, calendarId: string, bookingId: string, signal: AbortSignal): Promise<string | null> {
  const filter = `singleValueExtendedProperties/Any(ep: ep/id eq '${OWN_EVENT_MARKS.graphBookingId}' and ep/value eq '${odataString(bookingId)}')`;
  // The Graph client passes the query on as written, so the filter is encoded here.
  const body: unknown = await client
    .api(`${eventsPath(calendarId)}?$filter=${encodeURIComponent(filter)}&$select=id&$top=1`)
    .option('signal', signal)
    .get();
  const found = foundSchema.safeParse(body);
  if (!found.success) throw new ProviderError('Microsoft Graph answered an event search without a value array');
  return found.data.value[0]?.id ?? null;
}

/** The event as Graph takes it: UTC times, the attendee, and the marks that let a read or a retry find it again. */
function graphEvent(event: ProviderEventInput) {
  return {
    subject: event.summary,
    start: { dateTime: graphDateTime(event.start), timeZone: 'UTC' },
    end: { dateTime: graphDateTime(event.end), timeZone: 'UTC' },
    showAs: 'busy',
    attendees: event.attendeeEmail ? [{ emailAddress: { address: event.attendeeEmail }, type: 'required' }] : [],
    singleValueExtendedProperties: [
      { id: OWN_EVENT_MARKS.graphBookingId, value: event.bookingId },
      { id: OWN_EVENT_MARKS.graphScheduleId, value: event.scheduleId },
    ],
  };
}

/** Graph's dateTimeTimeZone takes a local time without offset; ours are UTC (`timeZone: 'UTC'`). */
function graphDateTime(instant: string): string {
  return new Date(instant).toISOString().slice(0, 23);
}

/** `primary` is the account's default calendar, whose events are `/me/events`. */
function eventsPath(calendarId: string): string {
  return calendarId === 'primary' ? '/me/events' : `/me/calendars/${encodeURIComponent(calendarId)}/events`;
}

/** An event is addressed by its id alone, whatever calendar holds it. */
function eventPath(eventId: string): string {
  return `/me/events/${encodeURIComponent(eventId)}`;
}

/** A quote inside an OData string literal is doubled. */
function odataString(value: string): string {
  return value.replaceAll("'", "''");
}

function isGone(error: unknown): boolean {
  return error instanceof ProviderError && (error.status === 404 || error.status === 410);
}
