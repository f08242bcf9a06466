import { describe, expect, it } from 'vitest';
import { failureBackoffMs, parseRetryAfter, regularIntervalMs, retryDelayMs } from '../../src/domain/retry-policy.js';

const now = new Date('2026-03-10T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Tue, 10 Mar 2026 12:00:30 GMT', 30_000],
    ['Tue, 10 Mar 2026 11:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('when the header is %j, then %s ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('backoff', () => {
  it.each([
    [1, 0, 50],
    [1, 1, 100],
    [3, 0, 200],
    [3, 1, 400],
  ])('when retry %i has random %d, then the in-sync delay is %i ms', (attempt, random, expected) => {
    expect(retryDelayMs(attempt, 100, () => random)).toBe(expected);
  });

  it.each([
    [1, 15_000, 30_000],
    [2, 30_000, 60_000],
    [20, 150_000, 300_000],
  ])('when %i syncs failed in a row, then the next waits between %i and %i ms (capped by the interval)', (failures, min, max) => {
    expect(failureBackoffMs(failures, 300_000, () => 0)).toBe(min);
    expect(failureBackoffMs(failures, 300_000, () => 1)).toBe(max);
  });

  it('when regular, then the interval is jittered by ±10 %', () => {
    expect(regularIntervalMs(300_000, () => 0)).toBe(270_000);
    expect(regularIntervalMs(300_000, () => 1)).toBe(330_000);
  });
});
