import { describe, expect, it } from 'vitest';
import { icsBusyWindows, IcsParseError } from '../../src/domain/ics-feed.js';

/** A VCALENDAR around `body` (lines joined with CRLF as RFC 5545 wants). */
const calendar = (...body: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...body, 'END:VCALENDAR'].join('\r\n');
const event = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

const range = (start: string, end: string) => ({ start: new Date(start), end: new Date(end) });
const read = (text: string, window = range('2026-03-01T00:00:00Z', '2026-05-01T00:00:00Z'), timeZone = 'America/New_York') =>
  icsBusyWindows(text, { range: window, timeZone, maxOccurrencesPerEvent: 5000 }).map((w): [string, string] => [
    w.start.toISOString(),
    w.end.toISOString(),
  ]);

describe('icsBusyWindows: single events', () => {
  it.each([
    ['a UTC event', ['DTSTART:20260310T140000Z', 'DTEND:20260310T150000Z'], [['2026-03-10T14:00:00.000Z', '2026-03-10T15:00:00.000Z']]],
    [
      'a TZID event (Europe/Berlin, winter)',
      ['DTSTART;TZID=Europe/Berlin:20260310T090000', 'DTEND;TZID=Europe/Berlin:20260310T100000'],
      [['2026-03-10T08:00:00.000Z', '2026-03-10T09:00:00.000Z']],
    ],
    [
      'a floating event (the schedule zone, New York, EDT)',
      ['DTSTART:20260310T090000', 'DTEND:20260310T100000'],
      [['2026-03-10T13:00:00.000Z', '2026-03-10T14:00:00.000Z']],
    ],
    [
      'an all-day event (a local day of the schedule zone)',
      ['DTSTART;VALUE=DATE:20260310', 'DTEND;VALUE=DATE:20260312'],
      [['2026-03-10T04:00:00.000Z', '2026-03-12T04:00:00.000Z']],
    ],
    [
      'an all-day event across the DST change in the schedule zone (a 23-hour day)',
      ['DTSTART;VALUE=DATE:20260308'],
      [['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']],
    ],
    ['a DURATION', ['DTSTART:20260310T140000Z', 'DURATION:PT90M'], [['2026-03-10T14:00:00.000Z', '2026-03-10T15:30:00.000Z']]],
    ['an event outside the range', ['DTSTART:20260610T140000Z', 'DTEND:20260610T150000Z'], []],
    ['TRANSP:TRANSPARENT', ['DTSTART:20260310T140000Z', 'DTEND:20260310T150000Z', 'TRANSP:TRANSPARENT'], []],
    ['STATUS:CANCELLED', ['DTSTART:20260310T140000Z', 'DTEND:20260310T150000Z', 'STATUS:CANCELLED'], []],
  ])('when the feed has %s, then its windows are as expected', (_kind, lines, expected) => {
    expect(read(calendar(...event('UID:one', ...lines)))).toEqual(expected);
  });

  it('when an event straddles the range start, then it is clipped to the range', () => {
    const text = calendar(...event('UID:a', 'DTSTART:20260228T230000Z', 'DTEND:20260301T010000Z'));
    expect(read(text)).toEqual([['2026-03-01T00:00:00.000Z', '2026-03-01T01:00:00.000Z']]);
  });

  it('when the text is not iCalendar, then IcsParseError', () => {
    expect(() => read('<html>nope</html>')).toThrow(IcsParseError);
    expect(() => read('BEGIN:VCARD\r\nEND:VCARD')).toThrow(IcsParseError);
  });
});

const weekly = (zone: string, ...extra: string[]) =>
  calendar(
    ...event(
      'UID:weekly',
      `DTSTART;TZID=${zone}:20260302T090000`,
      `DTEND;TZID=${zone}:20260302T100000`,
      'RRULE:FREQ=WEEKLY;COUNT=6',
      ...extra,
    ),
  );

describe('icsBusyWindows: recurrences', () => {
  it.each([
    // Europe/Berlin moves to CEST on 2026-03-29: 09:00 local is 08:00Z before and 07:00Z after.
    ['Europe/Berlin', ['08', '08', '08', '08', '07', '07']],
    // America/New_York moves to EDT on 2026-03-08: 09:00 local is 14:00Z before and 13:00Z after.
    ['America/New_York', ['14', '13', '13', '13', '13', '13']],
  ])('when a weekly 09:00 event in %s crosses the DST change, then it stays 09:00 local', (zone, utcHours) => {
    const starts = read(weekly(zone)).map(([start]) => start);
    const days = ['02', '09', '16', '23', '30', '06'];
    expect(starts).toEqual(days.map((day, i) => `2026-${i < 5 ? '03' : '04'}-${day}T${utcHours[i]}:00:00.000Z`));
  });

  it('when the TZID is no IANA name but the feed defines it in a VTIMEZONE, then its rules apply', () => {
    const vtimezone = [
      'BEGIN:VTIMEZONE',
      'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD',
      'DTSTART:16010101T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:16010101T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
    ];
    const text = weekly('W. Europe Standard Time').replace('PRODID:-//test//EN', ['PRODID:-//test//EN', ...vtimezone].join('\r\n'));
    expect(read(text).map(([start]) => start.slice(11, 13))).toEqual(['08', '08', '08', '08', '07', '07']);
  });

  it('when an EXDATE names an occurrence (in another zone than DTSTART), then that one is skipped', () => {
    const starts = read(weekly('Europe/Berlin', 'EXDATE;TZID=Europe/Berlin:20260316T090000', 'EXDATE:20260330T070000Z'));
    expect(starts.map(([start]) => start.slice(0, 10))).toEqual(['2026-03-02', '2026-03-09', '2026-03-23', '2026-04-06']);
  });

  it('when a RECURRENCE-ID override moves one occurrence, then it blocks its new time instead', () => {
    const text = calendar(
      ...event(
        'UID:weekly',
        'DTSTART;TZID=Europe/Berlin:20260302T090000',
        'DTEND;TZID=Europe/Berlin:20260302T100000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
      ),
      ...event(
        'UID:weekly',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260309T090000',
        'DTSTART;TZID=Europe/Berlin:20260310T150000',
        'DTEND;TZID=Europe/Berlin:20260310T160000',
      ),
    );
    expect(read(text)).toEqual([
      ['2026-03-10T14:00:00.000Z', '2026-03-10T15:00:00.000Z'],
      ['2026-03-02T08:00:00.000Z', '2026-03-02T09:00:00.000Z'],
      ['2026-03-16T08:00:00.000Z', '2026-03-16T09:00:00.000Z'],
    ]);
  });

  it('when an override cancels one occurrence, then that one frees its time and the others block', () => {
    const text = calendar(
      ...event('UID:w', 'DTSTART:20260302T140000Z', 'DTEND:20260302T150000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'),
      ...event('UID:w', 'RECURRENCE-ID:20260309T140000Z', 'DTSTART:20260309T140000Z', 'DTEND:20260309T150000Z', 'STATUS:CANCELLED'),
    );
    expect(read(text).map(([start]) => start.slice(0, 10))).toEqual(['2026-03-02', '2026-03-16']);
  });

  it('when UNTIL (UTC) is the last occurrence of a TZID rule, then that occurrence is included', () => {
    const starts = read(
      calendar(
        ...event('UID:u', 'DTSTART;TZID=Europe/Berlin:20260323T090000', 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY;UNTIL=20260330T070000Z'),
      ),
    );
    expect(starts.map(([start]) => start)).toEqual(['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });

  it('when a rule has no end, then it is expanded over the range only, and at most the cap per event', () => {
    const daily = calendar(...event('UID:d', 'DTSTART:20200101T120000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY'));
    expect(read(daily)).toHaveLength(61); // March and April 2026
    const capped = icsBusyWindows(daily, {
      range: range('2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z'),
      timeZone: 'UTC',
      maxOccurrencesPerEvent: 100,
    });
    expect(capped).toHaveLength(100);
    const minutely = calendar(...event('UID:m', 'DTSTART:20260301T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY'));
    expect(
      icsBusyWindows(minutely, {
        range: range('2026-03-01T00:00:00Z', '2026-05-01T00:00:00Z'),
        timeZone: 'UTC',
        maxOccurrencesPerEvent: 5000,
      }).length,
    ).toBeLessThanOrEqual(5001);
  });

  it('when a daily rule began long before the range (more occurrences than the cap), then the range still gets its own', () => {
    const since2000 = calendar(...event('UID:s', 'DTSTART;TZID=Europe/Berlin:20000103T090000', 'DURATION:PT15M', 'RRULE:FREQ=DAILY'));
    const windows = icsBusyWindows(since2000, {
      range: range('2026-03-28T00:00:00Z', '2026-03-31T00:00:00Z'),
      timeZone: 'UTC',
      maxOccurrencesPerEvent: 5,
    });
    expect(windows.map((w) => w.start.toISOString())).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
  });

  it('when an occurrence starts before the range and lasts into it, then its part inside blocks', () => {
    const text = calendar(...event('UID:w', 'DTSTART:20260226T000000Z', 'DURATION:P4D', 'RRULE:FREQ=WEEKLY;COUNT=2'));
    expect(read(text)).toEqual([
      ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
      ['2026-03-05T00:00:00.000Z', '2026-03-09T00:00:00.000Z'],
    ]);
  });

  it('when an all-day event recurs yearly, then each year blocks that local day of the schedule zone', () => {
    const text = calendar(...event('UID:b', 'DTSTART;VALUE=DATE:20200315', 'RRULE:FREQ=YEARLY'));
    expect(read(text, range('2026-01-01T00:00:00Z', '2027-12-31T00:00:00Z'), 'Europe/Berlin')).toEqual([
      ['2026-03-14T23:00:00.000Z', '2026-03-15T23:00:00.000Z'],
      ['2027-03-14T23:00:00.000Z', '2027-03-15T23:00:00.000Z'],
    ]);
  });
});
