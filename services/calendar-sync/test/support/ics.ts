/** iCalendar text for the ICS tests: a VCALENDAR around VEVENTs, lines joined with CRLF as RFC 5545 wants. */
export const vcalendar = (...body: string[]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//calendar-sync tests//EN', ...body, 'END:VCALENDAR'].join('\r\n');

export const vevent = (...lines: string[]): string[] => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

/** A window as the busy event carries it. */
export const iso = (start: string, end: string) => ({ start: new Date(start).toISOString(), end: new Date(end).toISOString() });
