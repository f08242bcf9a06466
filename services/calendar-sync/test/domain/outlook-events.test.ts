import { describe, expect, it } from 'vitest';
import { outlookBusyWindows, withoutOwnEvents, type GraphEvent } from '../../src/domain/outlook-events.js';
import { OWN_EVENT_MARKS } from '../../src/domain/own-events.js';

const timed = (showAs: string, start: string, end: string, extra: Partial<GraphEvent> = {}): GraphEvent => ({
  showAs,
  isAllDay: false,
  isCancelled: false,
  start: { dateTime: start, timeZone: 'UTC' },
  end: { dateTime: end, timeZone: 'UTC' },
  ...extra,
});
const allDay = (start: string, end: string): GraphEvent => ({
  showAs: 'busy',
  isAllDay: true,
  start: { dateTime: `${start}T00:00:00.0000000`, timeZone: 'UTC' },
  end: { dateTime: `${end}T00:00:00.0000000`, timeZone: 'UTC' },
});
const iso = (windows: { start: Date; end: Date }[]) => windows.map((w) => [w.start.toISOString(), w.end.toISOString()]);

describe('outlookBusyWindows', () => {
  it.each([
    ['busy', true],
    ['tentative', true],
    ['oof', true],
    ['free', false],
    ['workingElsewhere', false],
    ['unknown', false],
  ])('when showAs is %s, then blocking is %s', (showAs, blocks) => {
    const windows = outlookBusyWindows([timed(showAs, '2026-03-10T09:00:00.0000000', '2026-03-10T10:00:00.0000000')], 'UTC');
    expect(windows.length === 1).toBe(blocks);
  });

  it('when an event is cancelled, then it does not block', () => {
    expect(
      outlookBusyWindows([timed('busy', '2026-03-10T09:00:00.0000000', '2026-03-10T10:00:00.0000000', { isCancelled: true })], 'UTC'),
    ).toEqual([]);
  });

  it('when the time carries seven fractional digits in UTC, then it is read as UTC', () => {
    expect(iso(outlookBusyWindows([timed('busy', '2026-03-10T09:30:00.0000000', '2026-03-10T10:15:00.0000000')], 'Europe/Berlin'))).toEqual(
      [['2026-03-10T09:30:00.000Z', '2026-03-10T10:15:00.000Z']],
    );
  });

  it('when a timed event comes in an IANA zone, then it is converted from that zone', () => {
    const event = {
      ...timed('busy', '', ''),
      start: { dateTime: '2026-03-10T09:00:00.0000000', timeZone: 'Europe/Berlin' },
      end: { dateTime: '2026-03-10T10:00:00.0000000', timeZone: 'Europe/Berlin' },
    };
    expect(iso(outlookBusyWindows([event], 'UTC'))).toEqual([['2026-03-10T08:00:00.000Z', '2026-03-10T09:00:00.000Z']]);
  });

  // All-day events are floating dates: they block the schedule zone's local days, DST-correct.
  it.each([
    ['a winter day in New York', 'America/New_York', '2026-01-15', '2026-01-16', '2026-01-15T05:00:00.000Z', '2026-01-16T05:00:00.000Z'],
    [
      'the spring-forward day in New York (23 h)',
      'America/New_York',
      '2026-03-08',
      '2026-03-09',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ],
    [
      'the fall-back day in Berlin (25 h)',
      'Europe/Berlin',
      '2026-10-25',
      '2026-10-26',
      '2026-10-24T22:00:00.000Z',
      '2026-10-25T23:00:00.000Z',
    ],
    ['three days in Tokyo', 'Asia/Tokyo', '2026-05-01', '2026-05-04', '2026-04-30T15:00:00.000Z', '2026-05-03T15:00:00.000Z'],
  ])('when an all-day event covers %s, then it blocks those local days', (_case, zone, start, end, from, to) => {
    expect(iso(outlookBusyWindows([allDay(start, end)], zone))).toEqual([[from, to]]);
  });

  it('when start or end is missing or unreadable, then the event is skipped', () => {
    expect(outlookBusyWindows([{ showAs: 'busy', start: { dateTime: 'garbage', timeZone: 'UTC' }, end: null }], 'UTC')).toEqual([]);
  });
});

describe('withoutOwnEvents', () => {
  const schedule = '5b0e2c1a-7d44-4f0e-9a8b-2c3d4e5f6a7b';
  const marked = (id: string, scheduleId: string, propertyId: string = OWN_EVENT_MARKS.graphScheduleId) =>
    timed('busy', '2026-03-10T09:00:00.0000000', '2026-03-10T10:00:00.0000000', {
      id,
      singleValueExtendedProperties: [{ id: propertyId, value: scheduleId }],
    });
  const plain = (id: string) => timed('busy', '2026-03-10T09:00:00.0000000', '2026-03-10T10:00:00.0000000', { id });
  const at = { start: new Date('2026-03-10T09:00:00Z'), end: new Date('2026-03-10T10:00:00Z') };

  it('when an event has the id of an own event, then it is dropped, whatever the calendar of the row', () => {
    const own = { scheduleId: schedule, events: [{ calendarId: 'primary', eventId: 'AAMk1=', ...at }] };
    expect(withoutOwnEvents([plain('AAMk1='), plain('AAMk2=')], own).map((e) => e.id)).toEqual(['AAMk2=']);
  });

  it("when an event carries this schedule's mark, then it is dropped (any case); another schedule's mark or property stays", () => {
    const own = { scheduleId: schedule, events: [] };
    const events = [
      marked('a', schedule),
      marked('b', schedule.toUpperCase(), OWN_EVENT_MARKS.graphScheduleId.toLowerCase()),
      marked('c', '0e8f7a6b-1c2d-4e3f-8a9b-0c1d2e3f4a5b'),
      marked('d', schedule, OWN_EVENT_MARKS.graphBookingId),
      plain('e'),
    ];
    expect(withoutOwnEvents(events, own).map((e) => e.id)).toEqual(['c', 'd', 'e']);
  });

  it('when own events have no id yet, then no event is dropped by id', () => {
    const own = { scheduleId: schedule, events: [{ calendarId: 'primary', eventId: null, ...at }] };
    expect(withoutOwnEvents([plain('x'), { ...plain('y'), id: null }], own).map((e) => e.id)).toEqual(['x', null]);
  });
});
