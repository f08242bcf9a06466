import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../src/index.js';
import { parseRetryAfter, retryDelay } from '../src/retry.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-08T07:30:00.000Z');

  it.each([
    ['3', 3000],
    [' 0 ', 0],
    ['Sun, 08 Mar 2026 07:30:05 GMT', 5000],
    ['Sun, 08 Mar 2026 07:29:00 GMT', 0],
  ])('when Retry-After is %j, then it means %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([null, '', 'soon', '-1', '1.5'])('when Retry-After is %j, then it is ignored', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

  it('when the server gives Retry-After within the limit, then exactly that is waited', () => {
    expect(retryDelay(1, '2', options, 0, () => 0.5)).toBe(2000);
  });

  it('when the server asks for longer than maxRetryAfterMs, then there is no retry', () => {
    expect(retryDelay(1, '6', options, 0, () => 0.5)).toBeUndefined();
  });

  it.each([
    [1, 50, 100],
    [2, 100, 200],
    [3, 200, 400],
    [6, 500, 1000],
  ])('when there is no Retry-After, then retry %i waits between %i and %i ms (capped backoff, jitter)', (attempt, low, high) => {
    expect(retryDelay(attempt, null, options, 0, () => 0)).toBe(low);
    expect(retryDelay(attempt, null, options, 0, () => 1)).toBe(high);
  });
});
