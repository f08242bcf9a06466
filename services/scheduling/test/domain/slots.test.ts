import { describe, expect, it } from 'vitest';
import type { Interval, ScheduleRules } from '../../src/domain/availability.js';
import { generateSlots } from '../../src/domain/slots.js';
import { LONG_AGO, rules } from './fixtures.js';

function slotsOn(date: string, schedule: ScheduleRules, timezone = schedule.timezone) {
  const days = generateSlots({ now: LONG_AGO, rules: schedule, blockers: [], startDate: date, endDate: date, timezone });
  expect(days.map((day) => day.date)).toEqual([date]);
  return days[0]?.slots ?? [];
}

const at = (iso: string) => Date.parse(iso);

describe('generateSlots with hours, overrides and intervals', () => {
  const workWeek: ScheduleRules = {
    ...rules({ hours: [] }),
    availability: (['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const).map((day) => ({ day, start: '09:00', end: '11:00' })),
  };
  const override = (date: string, ...intervals: [string, string][]) => ({
    ...workWeek,
    dateOverrides: [{ date, intervals: intervals.map(([start, end]) => ({ start, end })) }],
  });

  // [case, local date (UTC schedule), schedule, expected labels]
  it.each([
    ['a weekday has its weekly hours', '2026-03-02', workWeek, '09:00 09:30 10:00 10:30'],
    ['an override with no intervals closes a weekday', '2026-03-02', override('2026-03-02'), ''],
    ['an override opens a Saturday', '2026-03-07', override('2026-03-07', ['10:00', '11:00']), '10:00 10:30'],
    ["an override replaces a weekday's hours", '2026-03-03', override('2026-03-03', ['12:00', '13:00']), '12:00 12:30'],
    ['an override of another date leaves the day alone', '2026-03-06', override('2026-03-07'), '09:00 09:30 10:00 10:30'],
    ['a weekend day has no hours', '2026-03-08', workWeek, ''],
    ['hours end at 24:00', '2026-03-02', rules({ hours: [['22:00', '24:00']] }), '22:00 22:30 23:00 23:30'],
    [
      'a day has several intervals',
      '2026-03-02',
      rules({
        hours: [
          ['14:00', '15:00'],
          ['09:00', '10:00'],
        ],
      }),
      '09:00 09:30 14:00 14:30',
    ],
    [
      'slot_interval < slot_duration',
      '2026-03-02',
      rules({ hours: [['09:00', '11:00']], slotDuration: 60, slotInterval: 15 }),
      '09:00 09:15 09:30 09:45 10:00',
    ],
    ['slot_interval > slot_duration', '2026-03-02', rules({ hours: [['09:00', '11:00']], slotInterval: 45 }), '09:00 09:45 10:30'],
    [
      'the last slot would not fit',
      '2026-03-02',
      rules({ hours: [['09:00', '10:40']], slotDuration: 45, slotInterval: 45 }),
      '09:00 09:45',
    ],
  ])('when %s, then the labels are as expected', (_case, date, schedule, labels) => {
    expect(
      slotsOn(date, schedule)
        .map((slot) => slot.label)
        .join(' '),
    ).toBe(labels);
  });

  it('when hours end at 24:00, then the last slot ends at the next midnight', () => {
    const slots = slotsOn('2026-03-02', rules({ hours: [['23:00', '24:00']] }));
    expect(slots.at(-1)).toEqual({
      start: '2026-03-02T23:30:00.000Z',
      end: '2026-03-03T00:00:00.000Z',
      status: 'available',
      label: '23:30',
      seats_remaining: 1,
    });
  });
});

describe("generateSlots in a timezone other than the schedule's", () => {
  const newYork = rules({ timezone: 'America/New_York', hours: [] });
  const mondayNineToFive = { ...newYork, availability: [{ day: 'monday' as const, start: '09:00', end: '17:00' }] };
  /** The slots of `schedule` (nothing busy) for the dates from `startDate` to `endDate` of `timezone`. */
  const slotsIn = (timezone: string, startDate: string, endDate: string, schedule: ScheduleRules = mondayNineToFive) =>
    generateSlots({ now: LONG_AGO, rules: schedule, blockers: [], startDate, endDate, timezone });

  it('when Tokyo dates are asked, then the New York Monday regroups into Tokyo days with Tokyo labels', () => {
    const days = slotsIn('Asia/Tokyo', '2026-03-02', '2026-03-03');
    expect(days.map((day) => [day.date, day.slots.length])).toEqual([
      ['2026-03-02', 2],
      ['2026-03-03', 14],
    ]);
    expect(days[0]?.slots.map((slot) => slot.label)).toEqual(['23:00', '23:30']);
    expect(days[0]?.slots[0]?.start).toBe('2026-03-02T14:00:00.000Z');
    expect(days[1]?.slots.at(-1)?.label).toBe('06:30');
  });

  it('when Los Angeles dates are asked of a Tokyo Monday, then its slots fall on the Sunday', () => {
    const tokyo = {
      ...rules({ timezone: 'Asia/Tokyo', hours: [] }),
      availability: [{ day: 'monday' as const, start: '09:00', end: '17:00' }],
    };
    const days = slotsIn('America/Los_Angeles', '2026-03-01', '2026-03-02', tokyo);
    expect(days.map((day) => [day.date, day.slots.length])).toEqual([
      ['2026-03-01', 16],
      ['2026-03-02', 0],
    ]);
    expect(days[0]?.slots[0]).toMatchObject({ start: '2026-03-02T00:00:00.000Z', label: '16:00' });
  });

  it('when the range is one Tokyo date, then slots starting on the next Tokyo date are left out', () => {
    const days = slotsIn('Asia/Tokyo', '2026-03-02', '2026-03-02');
    expect(days.map((day) => day.slots.map((slot) => slot.label))).toEqual([['23:00', '23:30']]);
  });

  it('when a range spans days without hours, then every date still has an entry, in order', () => {
    const days = slotsIn('America/New_York', '2026-03-01', '2026-03-15');
    expect(days.map((day) => day.date)).toHaveLength(15);
    expect(days.filter((day) => day.slots.length > 0).map((day) => day.date)).toEqual(['2026-03-02', '2026-03-09']);
    expect(days[8]?.slots[0]?.start).toBe('2026-03-09T13:00:00.000Z'); // EDT after the 8th
  });
});

describe('generateSlots with busy time and notice', () => {
  const morning = rules({ hours: [['09:00', '12:00']] });
  const busy = [{ start: at('2026-03-02T10:00:00Z'), end: at('2026-03-02T11:00:00Z') }];
  const labels = (schedule: ScheduleRules, blockers: readonly Interval[] = busy, now = LONG_AGO) =>
    generateSlots({ now, rules: schedule, blockers, startDate: '2026-03-02', endDate: '2026-03-02', timezone: 'UTC' })[0]?.slots.map(
      (slot) => slot.label,
    );

  it.each([
    ['a busy hour and no buffers', morning, busy, ['09:00', '09:30', '11:00', '11:30']],
    ['buffers of 15 before and 30 after', { ...morning, bufferBefore: 15, bufferAfter: 30 }, busy, ['09:00', '11:30']],
    [
      'a busy window touching the slots',
      morning,
      [{ start: at('2026-03-02T09:30:00Z'), end: at('2026-03-02T10:00:00Z') }],
      ['09:00', '10:00', '10:30', '11:00', '11:30'],
    ],
    [
      'overlapping, unsorted blockers',
      morning,
      [
        { start: at('2026-03-02T11:00:00Z'), end: at('2026-03-02T11:10:00Z') },
        { start: at('2026-03-02T09:00:00Z'), end: at('2026-03-02T11:05:00Z') },
        { start: at('2026-03-02T09:10:00Z'), end: at('2026-03-02T09:20:00Z') },
      ],
      ['11:30'],
    ],
    ['a blocker spanning the whole range', morning, [{ start: at('2026-03-01T00:00:00Z'), end: at('2026-03-03T00:00:00Z') }], []],
    [
      'a blocker of zero length',
      morning,
      [{ start: at('2026-03-02T10:00:00Z'), end: at('2026-03-02T10:00:00Z') }],
      ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'],
    ],
  ] as const)('when there is %s, then only clear slots remain', (_case, schedule, blockers, expected) => {
    expect(labels(schedule, blockers)).toEqual(expected);
  });

  it.each([
    ['now is before the hours and there is no notice', '2026-03-02T08:00:00Z', 0, ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']],
    ['now is inside the hours', '2026-03-02T09:40:00Z', 0, ['10:00', '10:30', '11:00', '11:30']],
    ['now + notice falls exactly on a slot', '2026-03-02T09:00:00Z', 60, ['10:00', '10:30', '11:00', '11:30']],
    ['now + notice falls between slots', '2026-03-02T09:10:00Z', 60, ['10:30', '11:00', '11:30']],
    ['now + notice is after the hours', '2026-03-02T09:00:00Z', 24 * 60, []],
  ] as const)('when %s, then no slot starts before now + minimum notice', (_case, now, notice, expected) => {
    expect(labels({ ...morning, minimumNotice: notice }, [], at(now))).toEqual(expected);
  });
});
