import { describe, expect, it } from 'vitest';
import type { Interval } from '../../src/domain/busy-windows.js';
import { withoutOwnTime, type OwnEvent } from '../../src/domain/own-busy-time.js';

const i = (start: string, end: string): Interval => ({
  start: new Date(`2026-03-10T${start}:00Z`),
  end: new Date(`2026-03-10T${end}:00Z`),
});
const show = (list: Interval[]) => list.map((x) => `${x.start.toISOString().slice(11, 16)}-${x.end.toISOString().slice(11, 16)}`);
const own = (calendarId: string, eventId: string | null, start: string, end: string): OwnEvent => ({
  calendarId,
  eventId,
  ...i(start, end),
});

describe('withoutOwnTime', () => {
  const events = [own('primary', 'e1', '09:00', '10:00'), own('work', 'e2', '11:00', '12:00'), own('primary', null, '14:00', '15:00')];
  const windows = [i('08:00', '10:00'), i('11:00', '12:00'), i('14:00', '15:00')];

  it('when own events are in the calendar, then their time is cut from its windows; other calendars keep theirs', () => {
    expect(show(withoutOwnTime(windows, { scheduleId: 's', events }, 'primary'))).toEqual(['08:00-09:00', '11:00-12:00']);
    expect(show(withoutOwnTime(windows, { scheduleId: 's', events }, 'work'))).toEqual(['08:00-10:00', '14:00-15:00']);
    expect(show(withoutOwnTime(windows, { scheduleId: 's', events }, 'elsewhere'))).toEqual(['08:00-10:00', '11:00-12:00', '14:00-15:00']);
  });

  it('when only unknown ids count (a reader that drops the others by id), then only their time is cut', () => {
    expect(show(withoutOwnTime(windows, { scheduleId: 's', events }, 'primary', true))).toEqual(['08:00-10:00', '11:00-12:00']);
  });
});
