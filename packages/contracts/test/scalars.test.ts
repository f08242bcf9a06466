import { describe, expect, it } from 'vitest';
import {
  dollarsSchema,
  dollarsToCents,
  instantSchema,
  localDateSchema,
  localTimeSchema,
  paginationQuerySchema,
  zoneNameSchema,
} from '../src/index.js';

describe('shared scalars', () => {
  it.each([
    ['Europe/Berlin', true],
    ['America/New_York', true],
    ['UTC', true],
    ['Asia/Kathmandu', true],
    ['Mars/Olympus', false],
    ['', false],
    ['Europe/Berlin; DROP', false],
  ])('when the time zone is %j, then validity is %s', (zone, valid) => {
    expect(zoneNameSchema.safeParse(zone).success).toBe(valid);
  });

  it.each([
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Europe/Kyiv', 'Europe/Kyiv'],
    ['Asia/Kathmandu', 'Asia/Kathmandu'],
    ['america/new_york', 'America/New_York'],
    ['utc', 'UTC'],
  ])('when the time zone %s is given, then it is kept as %s (case fixed, never renamed to an older alias)', (zone, kept) => {
    expect(zoneNameSchema.parse(zone)).toBe(kept);
  });

  it.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['26-01-01', false],
  ])('when the date is %s, then validity is %s', (date, valid) => {
    expect(localDateSchema.safeParse(date).success).toBe(valid);
  });

  it.each([
    ['00:00', true],
    ['23:59', true],
    ['24:00', false],
    ['9:00', false],
  ])('when the time is %s, then validity is %s', (time, valid) => {
    expect(localTimeSchema.safeParse(time).success).toBe(valid);
  });

  it('when an instant has an offset, then it is normalised to UTC; a bare local time is refused', () => {
    expect(instantSchema.parse('2026-03-08T02:30:00-05:00').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(instantSchema.safeParse('2026-03-08T02:30:00').success).toBe(false);
  });

  it.each([
    [19.99, 1999],
    [0.3, 30],
    [1.1, 110],
    [1000000000, 100000000000],
    [0, 0],
  ])('when %s dollars are given, then they are %s cents exactly', (dollars, cents) => {
    expect(dollarsSchema.safeParse(dollars).success).toBe(true);
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  // More than two decimals as written, however close to a cent: 0.1 + 0.2 is 0.30000000000000004.
  it.each([-1, 1.999, 0.001, 0.1 + 0.2, 0.000000001, 19.999999999, 1e-7])('when %s dollars are given, then they are refused', (dollars) => {
    expect(dollarsSchema.safeParse(dollars).success).toBe(false);
  });
});

describe('local dates', () => {
  it.each(['1900-01-01', '2026-02-28', '2028-02-29', '9998-12-31'])('when %s is given, then it is accepted', (date) => {
    expect(localDateSchema.safeParse(date).success).toBe(true);
  });

  it.each(['0000-01-01', '0099-06-01', '1899-12-31', '9999-12-31', '2026-02-30', '2026-13-01'])(
    'when %s is given, then it is refused',
    (date) => {
      expect(localDateSchema.safeParse(date).success).toBe(false);
    },
  );
});

describe('pagination query', () => {
  it('when nothing is given, then limit is 50 and offset is left to the list (0 unless a cursor says otherwise)', () => {
    expect(paginationQuerySchema.parse({})).toEqual({ limit: 50 });
  });

  it('when a cursor and an updated_since come, then they are kept, the instant as a Date', () => {
    expect(paginationQuerySchema.parse({ cursor: 'abc', updated_since: '2026-03-08T08:30:00+01:00' })).toEqual({
      limit: 50,
      cursor: 'abc',
      updated_since: new Date('2026-03-08T07:30:00.000Z'),
    });
  });

  it.each(['0', '10'])('when offset=%s comes beside a cursor, then it is refused naming offset (an explicit 0 counts)', (offset) => {
    const result = paginationQuerySchema.safeParse({ offset, cursor: 'abc' });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['offset'], message: 'cannot be given together with cursor' })]);
  });

  it.each(['2026-03-08T07:30:00', '2026-03-08', 'yesterday'])('when updated_since is %s (no offset or Z), then it is refused', (since) => {
    expect(paginationQuerySchema.safeParse({ updated_since: since }).error?.issues[0]?.path).toEqual(['updated_since']);
  });

  it.each([
    { limit: '0' },
    { limit: '201' },
    { limit: 'ten' },
    { offset: '-1' },
    { limit: '1.5' },
    { offset: '2147483648' },
    { page: '2' },
  ])('when %j is given, then it is refused', (query) => {
    expect(paginationQuerySchema.safeParse(query).success).toBe(false);
  });

  it('when limit is 200, then it is accepted', () => {
    expect(paginationQuerySchema.parse({ limit: '200', offset: '10' })).toEqual({ limit: 200, offset: 10 });
  });
});
