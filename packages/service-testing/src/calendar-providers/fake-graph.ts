/** Microsoft Graph v1.0 calendarView pages as the fake answers them. */

/** An Outlook event; all-day events give dates (`YYYY-MM-DD`), timed ones UTC instants. */
export interface FakeOutlookEvent {
  showAs: string;
  start: string;
  end: string;
  isAllDay?: boolean;
  isCancelled?: boolean;
}

/**
 * One page of `/me/calendar(s/{id})/calendarView`: events overlapping startDateTime..endDateTime, `$top`
 * (at most `pageSize`) per page, and an `@odata.nextLink` (carrying every query parameter plus
 * `$skiptoken`, as Graph does) under `nextLinkBase` while more remain.
 */
export function calendarViewPage(events: FakeOutlookEvent[], calendarId: string, url: URL, nextLinkBase: string, pageSize: number) {
  const params = url.searchParams;
  const from = Date.parse(params.get('startDateTime') ?? '');
  const to = Date.parse(params.get('endDateTime') ?? '');
  const skip = Number(params.get('$skiptoken') ?? 0);
  const top = Math.min(Number(params.get('$top') ?? 10), pageSize);
  const inRange = events.filter((e) => Date.parse(e.start) < to && Date.parse(e.end) > from);
  const body: Record<string, unknown> = {
    '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/calendarView',
    value: inRange.slice(skip, skip + top).map((e, i) => graphEvent(e, `${calendarId}-${skip + i}`)),
  };
  if (skip + top < inRange.length) {
    const next = new URLSearchParams(params);
    next.set('$skiptoken', String(skip + top));
    body['@odata.nextLink'] = `${nextLinkBase}${url.pathname.replace(/^\/graph\/v1\.0/, '')}?${next.toString()}`;
  }
  return body;
}

function graphDateTime(value: string): string {
  // Graph's dateTimeTimeZone: no offset, seven fractional digits.
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.0000000` : `${new Date(value).toISOString().slice(0, 19)}.0000000`;
}

function graphEvent(event: FakeOutlookEvent, id: string) {
  return {
    id,
    showAs: event.showAs,
    isAllDay: event.isAllDay ?? false,
    isCancelled: event.isCancelled ?? false,
    start: { dateTime: graphDateTime(event.start), timeZone: 'UTC' },
    end: { dateTime: graphDateTime(event.end), timeZone: 'UTC' },
  };
}
