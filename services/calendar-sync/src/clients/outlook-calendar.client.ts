import type { Client } from '@microsoft/microsoft-graph-client';
import { z } from 'zod';
import type { Interval } from '../domain/busy-windows.js';
import {
  GRAPH_EVENT_FIELDS,
  GRAPH_SCHEDULE_MARK_EXPAND,
  outlookBusyWindows,
  withoutOwnEvents,
  type GraphEvent,
} from '../domain/outlook-events.js';
import { withoutOwnTime } from '../domain/own-busy-time.js';
import { chunkRange } from '../domain/sync-range.js';
import type { CalendarRead, CalendarReader, ReadBusyInput } from './calendar-reader.js';
import { TokenSession, graphClient, relativeToRoot } from './graph-session.js';
import { classifyMicrosoftError } from './graph-errors.js';
import type { MicrosoftTokenClient } from './microsoft-token.client.js';
import { ProviderError } from './provider-errors.js';
import { withRetries, type RetrySettings } from './provider-retry.js';

export interface OutlookSettings {
  /** Graph root including the version, e.g. `https://graph.microsoft.com/v1.0`. */
  graphUrl: string;
  tokens: MicrosoftTokenClient;
  timeoutMs: number;
  retry: RetrySettings;
}

const MAX_DAYS = 62;
const MAX_PAGES = 500;

const pageSchema = z.object({
  value: z.array(z.looseObject({})).transform((events) => events as GraphEvent[]),
  '@odata.nextLink': z.string().optional(),
});

/**
 * Microsoft Graph v1.0 `calendarView` with the real client (graphClient: our own auth middleware, any base URL).
 * Paging follows `@odata.nextLink` against that base URL.
 */
export function outlookCalendarReader(settings: OutlookSettings): CalendarReader {
  return {
    async readBusy(input: ReadBusyInput): Promise<CalendarRead[]> {
      const session = new TokenSession(input.tokens, settings.tokens, settings.retry, input.signal);
      const client = graphClient(settings.graphUrl, input.tokens);
      const results: CalendarRead[] = [];
      for (const calendarId of input.calendarIds) {
        try {
          results.push({ calendarId, ok: true, windows: await readCalendar(client, session, settings, input, calendarId) });
        } catch (error) {
          // An unknown or forbidden calendar fails alone; anything else (throttling, outage, auth) fails the sync.
          if (!(error instanceof ProviderError) || (error.status !== 403 && error.status !== 404)) throw error;
          results.push({ calendarId, ok: false, error: error.message });
        }
      }
      return results;
    },
  };
}

async function readCalendar(
  client: Client,
  session: TokenSession,
  settings: OutlookSettings,
  input: ReadBusyInput,
  calendarId: string,
): Promise<Interval[]> {
  const events: GraphEvent[] = [];
  for (const part of chunkRange(input.range, MAX_DAYS)) {
    const query = new URLSearchParams({ startDateTime: part.start.toISOString(), endDateTime: part.end.toISOString() });
    // The Graph client passes the query on as written: the $expand value (spaces, quotes, braces) is encoded here.
    const fields = `$select=${GRAPH_EVENT_FIELDS.join(',')}&$expand=${encodeURIComponent(GRAPH_SCHEDULE_MARK_EXPAND)}`;
    let path: string | undefined = `${calendarPath(calendarId)}/calendarView?${query}&${fields}&$top=100`;
    for (let pages = 0; path; pages += 1) {
      if (pages >= MAX_PAGES) throw new ProviderError(`Microsoft Graph paged more than ${MAX_PAGES} times`);
      const current: string = path;
      const page = await withRetries(
        () => session.withAuthRetry(() => getPage(client, current, settings, input.signal)),
        classifyMicrosoftError,
        settings.retry,
        input.signal,
      );
      events.push(...page.value);
      const next = page['@odata.nextLink'];
      path = next ? relativeToRoot(next, settings.graphUrl) : undefined;
    }
  }
  // Own events are dropped by their id or schedule mark; those whose insert is not confirmed yet (no id recorded, and
  // no mark if the server ignored $expand) have their time cut out as for Google.
  const windows = outlookBusyWindows(withoutOwnEvents(events, input.own), input.timeZone);
  return withoutOwnTime(windows, input.own, calendarId, true);
}

async function getPage(client: Client, path: string, settings: OutlookSettings, signal: AbortSignal): Promise<z.infer<typeof pageSchema>> {
  const body: unknown = await client
    .api(path)
    .header('Prefer', 'outlook.timezone="UTC"')
    .option('signal', AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]))
    .get();
  const page = pageSchema.safeParse(body);
  if (!page.success) throw new ProviderError('Microsoft Graph answered a calendarView page without a value array');
  return page.data;
}

/** `primary` is the account's default calendar. */
function calendarPath(calendarId: string): string {
  return calendarId === 'primary' ? '/me/calendar' : `/me/calendars/${encodeURIComponent(calendarId)}`;
}
