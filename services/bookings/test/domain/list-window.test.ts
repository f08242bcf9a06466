import { describe, expect, it } from 'vitest';
import { escapeLike, startTimeWindow } from '../../src/domain/list-window.js';

const NOW = new Date('2030-05-01T12:00:00.000Z');
const d = (iso: string) => new Date(iso);

describe('startTimeWindow', () => {
  it.each([
    [{ start_date: '2030-05-02' }, { from: d('2030-05-02T00:00:00Z') }],
    [{ end_date: '2030-05-02' }, { before: d('2030-05-03T00:00:00Z') }],
    [{ start_date: '2030-05-02T10:00:00+02:00' }, { from: d('2030-05-02T08:00:00Z') }],
    [{ end_date: '2030-05-02T10:00:00Z' }, { until: d('2030-05-02T10:00:00Z') }],
    [{ upcoming: true }, { from: NOW }],
    [{ upcoming: true, start_date: '2030-06-01' }, { from: d('2030-06-01T00:00:00Z') }],
    [{ upcoming: true, start_date: '2030-01-01' }, { from: NOW }],
    [{ upcoming: false }, {}],
  ])('when the query is %j, then the window is %j', (query, window) => {
    expect(startTimeWindow(query, NOW)).toEqual(window);
  });
});

describe('escapeLike', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    ['a%b', 'a\\%b'],
    ['a_b', 'a\\_b'],
    ['a\\b', 'a\\\\b'],
  ])('when the text is %s, then the pattern is %s', (text, pattern) => {
    expect(escapeLike(text)).toBe(pattern);
  });
});
