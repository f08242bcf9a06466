import { describe, expect, it } from 'vitest';
import {
  clipIntervals,
  connectionWindows,
  fromIsoWindows,
  mergeIntervals,
  subtractIntervals,
  type Interval,
} from '../../src/domain/busy-windows.js';

const i = (start: string, end: string): Interval => ({
  start: new Date(`2026-03-10T${start}:00Z`),
  end: new Date(`2026-03-10T${end}:00Z`),
});
const show = (list: Interval[]) => list.map((x) => `${x.start.toISOString().slice(11, 16)}-${x.end.toISOString().slice(11, 16)}`);

describe('mergeIntervals', () => {
  it.each([
    ['nothing', [], []],
    ['disjoint, unsorted', [i('12:00', '13:00'), i('09:00', '10:00')], ['09:00-10:00', '12:00-13:00']],
    ['overlapping', [i('09:00', '11:00'), i('10:00', '12:00')], ['09:00-12:00']],
    ['touching', [i('09:00', '10:00'), i('10:00', '11:00')], ['09:00-11:00']],
    ['contained', [i('09:00', '17:00'), i('10:00', '11:00')], ['09:00-17:00']],
    ['empty ones dropped', [i('09:00', '09:00'), i('10:00', '09:30')], []],
  ])('when %s, then merged in order', (_case, input, expected) => {
    expect(show(mergeIntervals(input))).toEqual(expected);
  });
});

describe('clipIntervals / connectionWindows', () => {
  it('when windows cross the range edges, then they are cut to the range and merged across calendars', () => {
    const range = i('10:00', '16:00');
    expect(show(clipIntervals([i('08:00', '11:00'), i('15:00', '18:00'), i('06:00', '07:00')], range))).toEqual([
      '10:00-11:00',
      '15:00-16:00',
    ]);
    expect(show(connectionWindows([[i('09:00', '12:00')], [i('11:00', '13:00'), i('17:00', '18:00')]], range))).toEqual(['10:00-13:00']);
  });
});

describe('fromIsoWindows', () => {
  it('when entries are missing, unreadable or empty, then they are dropped', () => {
    const parsed = fromIsoWindows([
      { start: '2026-03-10T09:00:00Z', end: '2026-03-10T10:00:00+01:00' },
      { start: null, end: '2026-03-10T10:00:00Z' },
      { start: 'soon', end: '2026-03-10T10:00:00Z' },
      { start: '2026-03-10T09:00:00Z', end: '2026-03-10T08:00:00Z' },
    ]);
    expect(parsed).toEqual([]);
    expect(fromIsoWindows([{ start: '2026-03-10T09:00:00Z', end: '2026-03-10T11:00:00+01:00' }])).toEqual([i('09:00', '10:00')]);
  });
});

describe('subtractIntervals', () => {
  it.each([
    ['nothing removed', [i('09:00', '10:00')], [], ['09:00-10:00']],
    ['the same interval', [i('09:00', '10:00')], [i('09:00', '10:00')], []],
    ['overlapping its start', [i('09:00', '11:00')], [i('08:00', '10:00')], ['10:00-11:00']],
    ['overlapping its end', [i('09:00', '11:00')], [i('10:30', '12:00')], ['09:00-10:30']],
    ['contained in it (split)', [i('09:00', '12:00')], [i('10:00', '11:00')], ['09:00-10:00', '11:00-12:00']],
    ['containing it', [i('10:00', '11:00')], [i('09:00', '12:00')], []],
    ['touching its start', [i('10:00', '11:00')], [i('09:00', '10:00')], ['10:00-11:00']],
    ['touching its end', [i('10:00', '11:00')], [i('11:00', '12:00')], ['10:00-11:00']],
    ['disjoint', [i('10:00', '11:00')], [i('13:00', '14:00')], ['10:00-11:00']],
    [
      'several in one, unsorted',
      [i('08:00', '17:00')],
      [i('15:00', '16:00'), i('09:00', '10:00'), i('12:00', '13:00')],
      ['08:00-09:00', '10:00-12:00', '13:00-15:00', '16:00-17:00'],
    ],
    ['overlapping cuts', [i('08:00', '12:00')], [i('09:00', '10:30'), i('10:00', '11:00')], ['08:00-09:00', '11:00-12:00']],
    ['touching cuts', [i('08:00', '12:00')], [i('09:00', '10:00'), i('10:00', '11:00')], ['08:00-09:00', '11:00-12:00']],
    [
      'one cut across several',
      [i('08:00', '09:30'), i('10:00', '11:00'), i('10:30', '12:00')],
      [i('09:00', '11:30')],
      ['08:00-09:00', '11:30-12:00'],
    ],
    ['cut ending where the next starts', [i('09:00', '10:00'), i('10:00', '11:00')], [i('09:00', '10:00')], ['10:00-11:00']],
  ])('when removing %s, then the rest stays', (_case, intervals, removed, expected) => {
    expect(show(subtractIntervals(intervals, removed))).toEqual(expected);
  });

  it('when intervals are cut, then the inputs are left unchanged', () => {
    const intervals = [i('09:00', '12:00')];
    subtractIntervals(intervals, [i('10:00', '11:00')]);
    expect(show(intervals)).toEqual(['09:00-12:00']);
  });
});
