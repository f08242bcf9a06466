import { describe, expect, it } from 'vitest';
import type { ScheduleRules } from '../../src/domain/availability.js';
import { generateSlots } from '../../src/domain/slots.js';
import { LONG_AGO, rules } from './fixtures.js';

const NY = 'America/New_York';
const LONDON = 'Europe/London';
const LORD_HOWE = 'Australia/Lord_Howe';

function slotsOn(date: string, schedule: ScheduleRules) {
  const days = generateSlots({ now: LONG_AGO, rules: schedule, blockers: [], startDate: date, endDate: date, timezone: schedule.timezone });
  return days[0]?.slots ?? [];
}

/** `2026-03-08T05:00 00:00`: a slot's UTC start (to the minute) and its local label. */
const describeSlot = (slot: { start: string; label: string } | undefined) => slot && `${slot.start.slice(0, 16)} ${slot.label}`;

describe('generateSlots on DST transition days', () => {
  // [case, zone, local date and hours, slot count, first slot, last slot] — 30-minute slots every 30 minutes.
  it.each([
    ['NY spring-forward, whole day', NY, '2026-03-08 00:00-24:00', 46, '2026-03-08T05:00 00:00', '2026-03-09T03:30 23:30'],
    ['NY fall-back, whole day', NY, '2026-11-01 00:00-24:00', 50, '2026-11-01T04:00 00:00', '2026-11-02T04:30 23:30'],
    ['NY spring-forward, hours across the gap', NY, '2026-03-08 01:00-04:00', 4, '2026-03-08T06:00 01:00', '2026-03-08T07:30 03:30'],
    ['NY spring-forward, hours starting in the gap', NY, '2026-03-08 02:30-05:00', 3, '2026-03-08T07:30 03:30', '2026-03-08T08:30 04:30'],
    ['NY spring-forward, hours after the gap (13:00)', NY, '2026-03-08 13:00-17:00', 8, '2026-03-08T17:00 13:00', '2026-03-08T20:30 16:30'],
    ['NY spring-forward, evening hours to 24:00', NY, '2026-03-08 18:00-24:00', 12, '2026-03-08T22:00 18:00', '2026-03-09T03:30 23:30'],
    ['NY day before spring-forward, 13:00', NY, '2026-03-07 13:00-17:00', 8, '2026-03-07T18:00 13:00', '2026-03-07T21:30 16:30'],
    ['NY fall-back, hours across the repeated hour', NY, '2026-11-01 01:00-03:00', 6, '2026-11-01T05:00 01:00', '2026-11-01T07:30 02:30'],
    ['NY fall-back, hours after it (13:00)', NY, '2026-11-01 13:00-17:00', 8, '2026-11-01T18:00 13:00', '2026-11-01T21:30 16:30'],
    ['London forward, across the gap', LONDON, '2026-03-29 00:00-03:00', 4, '2026-03-29T00:00 00:00', '2026-03-29T01:30 02:30'],
    ['London forward, after it (13:00)', LONDON, '2026-03-29 13:00-17:00', 8, '2026-03-29T12:00 13:00', '2026-03-29T15:30 16:30'],
    ['London back, across the repeated hour', LONDON, '2026-10-25 00:00-03:00', 8, '2026-10-24T23:00 00:00', '2026-10-25T02:30 02:30'],
    ['London back, after it (14:00)', LONDON, '2026-10-25 14:00-16:00', 4, '2026-10-25T14:00 14:00', '2026-10-25T15:30 15:30'],
    ['Lord Howe, 30 minutes back', LORD_HOWE, '2026-04-05 00:00-24:00', 49, '2026-04-04T13:00 00:00', '2026-04-05T13:00 23:30'],
    ['Lord Howe, 30 minutes forward', LORD_HOWE, '2026-10-04 00:00-24:00', 47, '2026-10-03T13:30 00:00', '2026-10-04T12:30 23:30'],
    ['Santiago, forward at midnight', 'America/Santiago', '2026-09-06 00:00-24:00', 46, '2026-09-06T04:00 01:00', '2026-09-07T02:30 23:30'],
    ['Santiago, back at midnight', 'America/Santiago', '2026-04-04 00:00-24:00', 50, '2026-04-04T03:00 00:00', '2026-04-05T03:30 23:30'],
    ['Kathmandu (+05:45)', 'Asia/Kathmandu', '2026-03-09 09:00-10:00', 2, '2026-03-09T03:15 09:00', '2026-03-09T03:45 09:30'],
  ])('when it is %s, then the slots step in elapsed time with local labels', (_case, timezone, dayAndHours, count, first, last) => {
    const [date = '', hours = ''] = dayAndHours.split(' ');
    const [start = '', end = ''] = hours.split('-');
    const slots = slotsOn(date, rules({ timezone, hours: [[start, end]] }));
    expect(slots).toHaveLength(count);
    expect([describeSlot(slots[0]), describeSlot(slots.at(-1))]).toEqual([first, last]);
    for (const slot of slots) expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(30 * 60_000);
  });

  it('when hours cross the NY fall-back, then the repeated hour is offered twice with the same labels', () => {
    const slots = slotsOn('2026-11-01', rules({ timezone: NY, hours: [['01:00', '03:00']] }));
    expect(slots.map((slot) => slot.label)).toEqual(['01:00', '01:30', '01:00', '01:30', '02:00', '02:30']);
  });

  it('when hours cross the NY spring-forward, then the missing hour is skipped', () => {
    const slots = slotsOn('2026-03-08', rules({ timezone: NY, hours: [['01:00', '04:00']] }));
    expect(slots.map((slot) => slot.label)).toEqual(['01:00', '01:30', '03:00', '03:30']);
  });

  it('when a day has hours at 02:30 and 03:00 on spring-forward, then no slot is offered twice', () => {
    const slots = slotsOn(
      '2026-03-08',
      rules({
        timezone: NY,
        hours: [
          ['01:00', '02:30'],
          ['03:00', '05:00'],
        ],
      }),
    );
    const starts = slots.map((slot) => slot.start);
    expect(new Set(starts).size).toBe(starts.length);
    expect(starts).toEqual([...starts].sort());
  });
});
