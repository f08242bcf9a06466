import { test } from 'vitest';
import type { Weekday } from '@app/contracts';
import type { Interval, ScheduleRules } from '../../src/domain/availability.js';
import { generateSlots } from '../../src/domain/slots.js';

/*
 * The slot generator in-process (no HTTP, no database). Goals of issue 4: 14 days under 1 ms; 62 days
 * with 5 intervals a day, 500 busy windows and 200 bookings under 10 ms.
 */

const DAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const NOW = Date.parse('2026-03-01T00:00:00Z');
const START = Date.parse('2026-03-02T00:00:00Z');

function schedule(hours: [string, string][], days: Weekday[]): ScheduleRules {
  return {
    timezone: 'America/New_York',
    slotDuration: 30,
    slotInterval: 15,
    availability: days.flatMap((day) => hours.map(([start, end]) => ({ day, start, end }))),
    dateOverrides: [{ date: '2026-03-20', intervals: [{ start: '10:00', end: '12:00' }] }],
    bufferBefore: 10,
    bufferAfter: 5,
    minimumNotice: 60,
  };
}

/** `count` busy intervals of 15–90 minutes spread pseudo-randomly (fixed seed) over `days` days. */
function busy(count: number, days: number, seed: number): Interval[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    const start = START + Math.floor(next() * days * 96) * 15 * 60_000;
    return { start, end: start + (1 + Math.floor(next() * 6)) * 15 * 60_000 };
  });
}

const workWeek = schedule([['09:00', '17:00']], DAYS.slice(0, 5));
const fiveIntervals = schedule(
  [
    ['07:00', '08:30'],
    ['09:00', '11:00'],
    ['12:00', '14:00'],
    ['15:00', '17:30'],
    ['19:00', '21:00'],
  ],
  DAYS,
);
const fortnightBusy = [...busy(200, 15, 7), ...busy(50, 15, 11)];
const twoMonthsBusy = [...busy(500, 63, 13), ...busy(200, 63, 17)];
/** The fortnight's 50 bookings again, each taking 1–20 of a 50-seat schedule's seats (calendar windows still block). */
const fortnightWindows = busy(200, 15, 7);
const fortnightSeats = busy(50, 15, 11).map((interval, i) => ({ ...interval, seats: 1 + ((i * 7) % 20) }));

test('generateSlots', async ({ bench }) => {
  await bench.compare(
    bench('14 days, Mon–Fri 09–17, 200 busy windows + 50 bookings', () => {
      generateSlots({
        now: NOW,
        rules: workWeek,
        blockers: fortnightBusy,
        startDate: '2026-03-02',
        endDate: '2026-03-16',
        timezone: 'America/New_York',
      });
    }),
    bench('14 days as above, 50 seats per slot (200 busy windows + 50 bookings of 1–20 seats)', () => {
      generateSlots({
        now: NOW,
        rules: workWeek,
        blockers: fortnightWindows,
        seats: { perSlot: 50, takers: fortnightSeats },
        startDate: '2026-03-02',
        endDate: '2026-03-16',
        timezone: 'America/New_York',
      });
    }),
    bench('62 days, 5 intervals a day, 500 busy windows + 200 bookings', () => {
      generateSlots({
        now: NOW,
        rules: fiveIntervals,
        blockers: twoMonthsBusy,
        startDate: '2026-03-02',
        endDate: '2026-05-03',
        timezone: 'America/New_York',
      });
    }),
    bench('62 days as above, labelled in another zone (Europe/Berlin)', () => {
      generateSlots({
        now: NOW,
        rules: fiveIntervals,
        blockers: twoMonthsBusy,
        startDate: '2026-03-02',
        endDate: '2026-05-03',
        timezone: 'Europe/Berlin',
      });
    }),
  );
});
