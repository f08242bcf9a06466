/** Microsoft Graph v1.0 calendarView pages as the fake answers them. */

/** An Outlook event; all-day events give dates (`YYYY-MM-DD`), timed ones UTC instants. */
export interface FakeOutlookEvent {
  /** Given to created events; others get `<calendar>-<position>` in calendarView. */
  id?: string;
  showAs: string;
  start: string;
  end: string;
  isAllDay?: boolean;
  isCancelled?: boolean;
  subject?: string;
  attendees?: { emailAddress: { address: string; name?: string }; type?: string }[];
  singleValueExtendedProperties?: GraphExtendedProperty[];
}

export interface GraphExtendedProperty {
  id: string;
  value: string;
}

export interface CalendarViewOptions {
  /** Where nextLinks point. */
  nextLinkBase: string;
  pageSize: number;
  /** Answer as a server that ignores `$expand` (no singleValueExtendedProperties, whatever was asked). */
  ignoreExpand: boolean;
}

/**
 * One page of `/me/calendar(s/{id})/calendarView`: events overlapping startDateTime..endDateTime, `$top`
 * (at most `pageSize`) per page, and an `@odata.nextLink` (carrying every query parameter plus
 * `$skiptoken`, as Graph does) under `nextLinkBase` while more remain. `$expand=singleValueExtendedProperties($filter=id
 * eq '…')` adds the event's properties of that id (none: the field is left out).
 */
export function calendarViewPage(events: FakeOutlookEvent[], calendarId: string, url: URL, options: CalendarViewOptions) {
  const params = url.searchParams;
  const from = Date.parse(params.get('startDateTime') ?? '');
  const to = Date.parse(params.get('endDateTime') ?? '');
  const skip = Number(params.get('$skiptoken') ?? 0);
  const top = Math.min(Number(params.get('$top') ?? 10), options.pageSize);
  const expanded = options.ignoreExpand ? undefined : expandedPropertyId(params.get('$expand'));
  const inRange = events.filter((e) => Date.parse(e.start) < to && Date.parse(e.end) > from);
  const body: Record<string, unknown> = {
    '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/calendarView',
    value: inRange.slice(skip, skip + top).map((e, i) => graphEvent(e, `${calendarId}-${skip + i}`, expanded)),
  };
  if (skip + top < inRange.length) {
    const next = new URLSearchParams(params);
    next.set('$skiptoken', String(skip + top));
    body['@odata.nextLink'] = `${options.nextLinkBase}${url.pathname.replace(/^\/graph\/v1\.0/, '')}?${next.toString()}`;
  }
  return body;
}

/** The property id of `singleValueExtendedProperties($filter=id eq '<id>')`, the only $expand the fake knows. */
function expandedPropertyId(expand: string | null): string | undefined {
  return expand ? /^singleValueExtendedProperties\(\$filter=id eq '(.+)'\)$/.exec(expand)?.[1] : undefined;
}

function graphDateTime(value: string): string {
  // Graph's dateTimeTimeZone: no offset, seven fractional digits.
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.0000000` : `${new Date(value).toISOString().slice(0, 19)}.0000000`;
}

/** The event as Graph shows it; with `expandedProperty`, its extended properties of that id (if any). */
export function graphEvent(event: FakeOutlookEvent, fallbackId: string, expandedProperty?: string) {
  const properties = (event.singleValueExtendedProperties ?? []).filter((p) => p.id.toLowerCase() === expandedProperty?.toLowerCase());
  return {
    id: event.id ?? fallbackId,
    subject: event.subject ?? '',
    showAs: event.showAs,
    isAllDay: event.isAllDay ?? false,
    isCancelled: event.isCancelled ?? false,
    start: { dateTime: graphDateTime(event.start), timeZone: 'UTC' },
    end: { dateTime: graphDateTime(event.end), timeZone: 'UTC' },
    attendees: event.attendees ?? [],
    ...(properties.length > 0 ? { singleValueExtendedProperties: properties } : {}),
  };
}
