import { describe, expect, it } from 'vitest';
import { whyUnavailable } from '../../src/domain/availability-check.js';
import { LONG_AGO, rules } from './fixtures.js';

const at = Date.parse;

describe('whyUnavailable', () => {
  const schedule = {
    ...rules({ timezone: 'Europe/London', hours: [] }),
    availability: [
      { day: 'monday' as const, start: '09:00', end: '12:00' },
      { day: 'monday' as const, start: '12:00', end: '17:00' },
      { day: 'monday' as const, start: '22:00', end: '24:00' },
      { day: 'tuesday' as const, start: '00:00', end: '01:00' },
    ],
    bufferBefore: 15,
    bufferAfter: 10,
    minimumNotice: 60,
  };
  const busy = [{ start: at('2026-03-02T14:00:00Z'), end: at('2026-03-02T15:00:00Z') }];

  it.each([
    ['inside one interval', '2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', null],
    ['across two touching intervals', '2026-03-02T11:00:00Z', '2026-03-02T13:00:00Z', null],
    ["across midnight into the next day's hours", '2026-03-02T23:30:00Z', '2026-03-03T00:30:00Z', null],
    ['past the end of the hours', '2026-03-02T16:30:00Z', '2026-03-02T17:30:00Z', 'outside_availability'],
    ['in the gap between intervals', '2026-03-02T18:00:00Z', '2026-03-02T18:30:00Z', 'outside_availability'],
    ['empty', '2026-03-02T10:00:00Z', '2026-03-02T10:00:00Z', 'outside_availability'],
    ['overlapping busy time', '2026-03-02T14:30:00Z', '2026-03-02T15:30:00Z', 'calendar_busy'],
    ['ending inside the buffer before busy time', '2026-03-02T13:00:00Z', '2026-03-02T13:50:00Z', 'calendar_busy'],
    ['ending where the buffer before busy time starts', '2026-03-02T13:00:00Z', '2026-03-02T13:45:00Z', null],
    ['starting inside the buffer after busy time', '2026-03-02T15:05:00Z', '2026-03-02T15:30:00Z', 'calendar_busy'],
    ['starting where the buffer after busy time ends', '2026-03-02T15:10:00Z', '2026-03-02T15:30:00Z', null],
    ['a summer interval in local hours (BST)', '2026-06-01T08:00:00Z', '2026-06-01T09:00:00Z', null],
    ['a summer interval outside local hours (BST)', '2026-06-01T16:30:00Z', '2026-06-01T17:00:00Z', 'outside_availability'],
  ])('when the interval is %s, then the reason is %s', (_case, start, end, reason) => {
    expect(whyUnavailable({ now: LONG_AGO, rules: schedule, busy, start: at(start), end: at(end) })).toBe(reason);
  });

  it.each([
    ['before now + notice', '2026-03-02T09:30:00Z', 'minimum_notice'],
    ['exactly at now + notice', '2026-03-02T10:00:00Z', null],
  ])('when the interval starts %s, then the reason is %s', (_case, start, reason) => {
    const now = at('2026-03-02T09:00:00Z');
    expect(whyUnavailable({ now, rules: schedule, busy: [], start: at(start), end: at(start) + 30 * 60_000 })).toBe(reason);
  });
});
