import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { Zone, dateOfDayNumber, dayNumberOf, isoOf, weekdayOfDayNumber } from '../../src/domain/time.js';

describe('Zone.instantOf', () => {
  it.each([
    ['a normal winter time', 'America/New_York', '2026-01-15', '09:00', '2026-01-15T14:00:00.000Z'],
    ['a time in the spring-forward gap (offset before the gap)', 'America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z'],
    ['the first time after the gap', 'America/New_York', '2026-03-08', '03:00', '2026-03-08T07:00:00.000Z'],
    ['an ambiguous fall-back time (first occurrence)', 'America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z'],
    ['the end of a spring-forward day (24:00)', 'America/New_York', '2026-03-08', '24:00', '2026-03-09T04:00:00.000Z'],
    ['a London gap time', 'Europe/London', '2026-03-29', '01:30', '2026-03-29T01:30:00.000Z'],
    ['a London ambiguous time', 'Europe/London', '2026-10-25', '01:30', '2026-10-25T00:30:00.000Z'],
    ['a Lord Howe half-hour gap time', 'Australia/Lord_Howe', '2026-10-04', '02:15', '2026-10-03T15:45:00.000Z'],
    ['a Lord Howe ambiguous time', 'Australia/Lord_Howe', '2026-04-05', '01:45', '2026-04-04T14:45:00.000Z'],
    ['a Kathmandu time (+05:45)', 'Asia/Kathmandu', '2026-06-01', '09:00', '2026-06-01T03:15:00.000Z'],
    ['a time in UTC', 'UTC', '2026-06-01', '00:00', '2026-06-01T00:00:00.000Z'],
  ])('when the wall time is %s, then it maps to the RFC 5545 instant', (_case, zone, date, time, expected) => {
    const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
    expect(new Date(Zone.of(zone).instantOf(dayNumberOf(date), minutes)).toISOString()).toBe(expected);
  });
});

describe('Zone.localOf', () => {
  it.each(['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Santiago', 'Pacific/Chatham'])(
    'when instants every 20 minutes of 2026 are read in %s, then the wall time agrees with luxon',
    (name) => {
      const zone = Zone.of(name);
      const mismatches: string[] = [];
      for (let ms = Date.parse('2026-01-01T00:00:00Z'); ms < Date.parse('2027-01-01T00:00:00Z'); ms += 20 * 60_000) {
        const expected = DateTime.fromMillis(ms, { zone: name });
        const local = zone.localOf(ms);
        const actual = `${dateOfDayNumber(local.day)} ${local.minutes}`;
        const wanted = `${expected.toISODate()} ${expected.hour * 60 + expected.minute}`;
        if (actual !== wanted) mismatches.push(`${new Date(ms).toISOString()}: ${actual} ≠ ${wanted}`);
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
    },
  );
});

describe('day numbers', () => {
  it.each([
    ['1970-01-01', 4],
    ['2026-03-08', 0],
    ['2026-03-09', 1],
    ['2024-02-29', 4],
  ])('when the date is %s, then its weekday is %i and it round-trips', (date, weekday) => {
    expect(weekdayOfDayNumber(dayNumberOf(date))).toBe(weekday);
    expect(dateOfDayNumber(dayNumberOf(date))).toBe(date);
  });
});

describe('isoOf', () => {
  it.each([
    ['a whole minute', '2026-03-08T07:30:00.000Z'],
    ['midnight', '2026-03-09T00:00:00.000Z'],
    ['the last minute of a day', '2026-12-31T23:59:00.000Z'],
    ['an instant with seconds', '2026-03-08T07:30:15.250Z'],
    ['an instant before 1970', '1969-07-20T20:17:00.000Z'],
  ])('when the instant is %s, then it equals toISOString()', (_case, iso) => {
    expect(isoOf(Date.parse(iso))).toBe(iso);
  });
});
