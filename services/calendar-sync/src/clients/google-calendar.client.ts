import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { fromIsoWindows, type Interval } from '../domain/busy-windows.js';
import { withoutOwnTime } from '../domain/own-busy-time.js';
import { chunk, chunkRange } from '../domain/sync-range.js';
import type { CalendarRead, CalendarReader, ReadBusyInput } from './calendar-reader.js';
import { googleAuthClient, type GoogleSettings } from './google-auth.js';
import { classifyGoogleError } from './google-errors.js';
import { withRetries } from './provider-retry.js';

export type { GoogleSettings };

/** freeBusy answers at most 90 days and 50 calendars per query. */
const MAX_DAYS = 90;
const MAX_CALENDARS = 50;

/**
 * Google Calendar v3 `freebusy.query` with the real client. google-auth-library refreshes the access token
 * before it expires and once more on a 401; the refreshed tokens land in the sync's TokenBox.
 */
export function googleCalendarReader(settings: GoogleSettings): CalendarReader {
  return {
    async readBusy(input: ReadBusyInput): Promise<CalendarRead[]> {
      const api = calendar({ version: 'v3', auth: googleAuthClient(settings, input.tokens) });
      const windows = new Map<string, Interval[]>(input.calendarIds.map((id) => [id, []]));
      const failed = new Map<string, string>();
      for (const part of chunkRange(input.range, MAX_DAYS)) {
        for (const group of chunk(
          input.calendarIds.filter((id) => !failed.has(id)),
          MAX_CALENDARS,
        )) {
          const response = await withRetries(
            () => query(api, settings, part, group, input.signal),
            classifyGoogleError,
            settings.retry,
            input.signal,
          );
          for (const id of group) {
            const entry = response.calendars?.[id];
            // A calendar with errors (notFound, internalError…) inside a 200 is unreadable, not free.
            if (!entry) failed.set(id, 'missing from the freeBusy answer');
            else if (entry.errors?.length) failed.set(id, `Google reported ${entry.errors.map((e) => e.reason ?? 'an error').join(', ')}`);
            else windows.get(id)?.push(...fromIsoWindows(entry.busy ?? []));
          }
        }
      }
      return input.calendarIds.map((calendarId) => {
        const error = failed.get(calendarId);
        if (error !== undefined) return { calendarId, ok: false, error };
        // freeBusy cannot tell our own events from others: their time is cut out instead (see withoutOwnTime).
        return { calendarId, ok: true, windows: withoutOwnTime(windows.get(calendarId) ?? [], input.own, calendarId) };
      });
    },
  };
}

async function query(
  api: calendar_v3.Calendar,
  settings: GoogleSettings,
  range: Interval,
  calendarIds: string[],
  signal: AbortSignal,
): Promise<calendar_v3.Schema$FreeBusyResponse> {
  const response = await api.freebusy.query(
    { requestBody: { timeMin: range.start.toISOString(), timeMax: range.end.toISOString(), items: calendarIds.map((id) => ({ id })) } },
    // Our own retry rules (Retry-After, jitter, reauth) replace gaxios' built-in retries.
    { rootUrl: settings.apiUrl, retry: false, timeout: settings.timeoutMs, signal },
  );
  return response.data;
}
