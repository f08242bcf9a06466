import { describe, expect, it } from 'vitest';
import { eventInstants, localToUtc, nextDate } from '../src/domain/event-time.js';

describe('localToUtc (RFC 5545 rules)', () => {
  it.each([
    // zone, local date, local time, instant, why
    ['America/New_York', '2027-03-14', '02:30', '2027-03-14T07:30:00.000Z', 'gap: read with the offset before it (-05:00)'],
    ['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z', 'gap: the example of API.md'],
    ['America/New_York', '2026-03-08', '01:59', '2026-03-08T06:59:00.000Z', 'just before the gap'],
    ['America/New_York', '2026-03-08', '03:00', '2026-03-08T07:00:00.000Z', 'just after the gap (-04:00)'],
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z', 'overlap: first occurrence (-04:00)'],
    ['America/New_York', '2026-11-01', '00:30', '2026-11-01T04:30:00.000Z', 'before the overlap'],
    ['America/New_York', '2026-11-01', '02:30', '2026-11-01T07:30:00.000Z', 'after the overlap (-05:00)'],
    ['Europe/London', '2026-03-29', '01:30', '2026-03-29T01:30:00.000Z', 'gap: offset before it (+00:00)'],
    ['Europe/London', '2026-10-25', '01:30', '2026-10-25T00:30:00.000Z', 'overlap: first occurrence (BST)'],
    ['Europe/London', '2026-07-01', '12:00', '2026-07-01T11:00:00.000Z', 'summer time'],
    ['Australia/Lord_Howe', '2026-04-05', '01:45', '2026-04-04T14:45:00.000Z', '30-minute overlap: first occurrence (+11:00)'],
    ['Australia/Lord_Howe', '2026-04-05', '02:15', '2026-04-04T15:45:00.000Z', 'after the 30-minute overlap (+10:30)'],
    ['Australia/Lord_Howe', '2026-10-04', '02:15', '2026-10-03T15:45:00.000Z', '30-minute gap: offset before it (+10:30)'],
    ['Asia/Kathmandu', '2026-06-15', '09:00', '2026-06-15T03:15:00.000Z', '+05:45'],
    ['Asia/Kathmandu', '2026-01-01', '03:00', '2025-12-31T21:15:00.000Z', '+05:45 into the previous UTC day'],
    ['Pacific/Auckland', '2026-01-01', '09:00', '2025-12-31T20:00:00.000Z', 'across the date line (+13:00)'],
    ['Pacific/Auckland', '2026-04-05', '02:30', '2026-04-04T13:30:00.000Z', 'overlap: first occurrence (+13:00)'],
    ['Pacific/Auckland', '2026-09-27', '02:30', '2026-09-26T14:30:00.000Z', 'gap: offset before it (+12:00)'],
    ['Pacific/Kiritimati', '2026-01-01', '09:00', '2025-12-31T19:00:00.000Z', '+14:00, the earliest zone'],
    ['Pacific/Kiritimati', '1994-12-31', '12:00', '1994-12-31T22:00:00.000Z', 'the day skipped in 1994: offset before it (-10:00)'],
    ['America/Santiago', '2026-09-06', '00:00', '2026-09-06T04:00:00.000Z', 'midnight inside a gap (-04:00 before it)'],
    ['UTC', '2026-02-28', '23:59', '2026-02-28T23:59:00.000Z', 'UTC'],
  ])('when %s %s %s, then %s (%s)', (zone, date, time, instant) => {
    expect(localToUtc(date, time, zone).toISOString()).toBe(instant);
  });

  it('when the zone is unknown, then it throws', () => {
    expect(() => localToUtc('2026-01-01', '10:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('eventInstants', () => {
  it.each([
    // zone, date, start, end, starts_at, ends_at, why
    ['Europe/Berlin', '2026-06-30', '09:00', '17:00', '2026-06-30T07:00:00.000Z', '2026-06-30T15:00:00.000Z', 'same day'],
    [
      'Europe/Berlin',
      '2026-06-30',
      '22:00',
      '02:00',
      '2026-06-30T20:00:00.000Z',
      '2026-07-01T00:00:00.000Z',
      'overnight: ends the next day',
    ],
    [
      'Europe/Berlin',
      '2026-06-30',
      '10:00',
      '10:00',
      '2026-06-30T08:00:00.000Z',
      '2026-07-01T08:00:00.000Z',
      'end equal to start: next day',
    ],
    [
      'America/New_York',
      '2026-03-07',
      '23:00',
      '03:00',
      '2026-03-08T04:00:00.000Z',
      '2026-03-08T07:00:00.000Z',
      'overnight over spring-forward',
    ],
    [
      'America/New_York',
      '2026-10-31',
      '23:00',
      '01:30',
      '2026-11-01T03:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      'overnight into the overlap',
    ],
    [
      'Pacific/Kiritimati',
      '2026-12-31',
      '23:30',
      '00:30',
      '2026-12-31T09:30:00.000Z',
      '2026-12-31T10:30:00.000Z',
      'over midnight at +14:00',
    ],
    ['Pacific/Auckland', '2026-09-26', '23:00', '04:00', '2026-09-26T11:00:00.000Z', '2026-09-26T15:00:00.000Z', 'overnight over the gap'],
  ])('when %s %s %s–%s, then %s to %s (%s)', (timezone, startDate, startTime, endTime, startsAt, endsAt) => {
    const instants = eventInstants({ startDate, startTime, endTime, timezone });
    expect({ startsAt: instants.startsAt.toISOString(), endsAt: instants.endsAt?.toISOString() }).toEqual({ startsAt, endsAt });
  });

  it('when there is no start time, then it starts at local midnight', () => {
    const instants = eventInstants({ startDate: '2026-07-01', startTime: null, endTime: null, timezone: 'Asia/Kathmandu' });
    expect(instants.startsAt.toISOString()).toBe('2026-06-30T18:15:00.000Z');
  });

  it('when there is no end time, then ends_at is null', () => {
    expect(eventInstants({ startDate: '2026-07-01', startTime: '10:00', endTime: null, timezone: 'UTC' }).endsAt).toBeNull();
  });

  it('when there is an end time but no start time, then it ends that day after midnight', () => {
    const instants = eventInstants({ startDate: '2026-07-01', startTime: null, endTime: '01:00', timezone: 'Europe/London' });
    expect(instants.endsAt?.toISOString()).toBe('2026-07-01T00:00:00.000Z');
  });

  it('when the start is inside a gap and the end just after it, then the end falls before the start', () => {
    // 02:59 does not exist and reads as 07:59Z; 03:00 EDT is 07:00Z. The use case refuses this (400).
    const instants = eventInstants({ startDate: '2026-03-08', startTime: '02:59', endTime: '03:00', timezone: 'America/New_York' });
    expect(instants.endsAt?.getTime()).toBeLessThan(instants.startsAt.getTime());
  });
});

describe('nextDate', () => {
  it.each([
    ['2026-12-31', '2027-01-01'],
    ['2028-02-28', '2028-02-29'],
    ['2026-02-28', '2026-03-01'],
  ])('when %s, then %s', (date, next) => {
    expect(nextDate(date)).toBe(next);
  });
});
