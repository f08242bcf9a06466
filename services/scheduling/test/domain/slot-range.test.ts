import { describe, expect, it } from 'vitest';
import { explicitRangeProblem, fetchWindow, resolveRange } from '../../src/domain/slot-range.js';
import { Zone } from '../../src/domain/time.js';

const NOW = Date.parse('2026-03-02T20:00:00Z');

describe('resolveRange', () => {
  it.each([
    ['no dates in UTC', {}, 'UTC', { ok: true, startDate: '2026-03-02', endDate: '2026-03-16' }],
    ['no dates in Auckland (already tomorrow)', {}, 'Pacific/Auckland', { ok: true, startDate: '2026-03-03', endDate: '2026-03-17' }],
    ['only startDate', { startDate: '2026-05-01' }, 'UTC', { ok: true, startDate: '2026-05-01', endDate: '2026-05-15' }],
    ['only endDate', { endDate: '2026-03-05' }, 'UTC', { ok: true, startDate: '2026-03-02', endDate: '2026-03-05' }],
    [
      'a single day',
      { startDate: '2026-03-05', endDate: '2026-03-05' },
      'UTC',
      { ok: true, startDate: '2026-03-05', endDate: '2026-03-05' },
    ],
    ['62 days', { startDate: '2026-03-01', endDate: '2026-05-02' }, 'UTC', { ok: true, startDate: '2026-03-01', endDate: '2026-05-02' }],
    [
      '63 days',
      { startDate: '2026-03-01', endDate: '2026-05-03' },
      'UTC',
      { ok: false, message: 'endDate must be at most 62 days after startDate' },
    ],
    [
      'end before start',
      { startDate: '2026-03-05', endDate: '2026-03-04' },
      'UTC',
      { ok: false, message: 'endDate must not be before startDate' },
    ],
    ['only an endDate before today', { endDate: '2026-03-01' }, 'UTC', { ok: false, message: 'endDate must not be before startDate' }],
  ])('when %s is asked, then the range is resolved or refused', (_case, query, zone, expected) => {
    expect(resolveRange(query, Zone.of(zone), NOW)).toEqual(expected);
  });

  it('when both dates are given, then the zone-free check agrees with the full one', () => {
    expect(explicitRangeProblem({ startDate: '2026-03-05', endDate: '2026-03-04' })).toBe('endDate must not be before startDate');
    expect(explicitRangeProblem({ startDate: '2026-03-05' })).toBeNull();
  });

  it.each([{ endDate: '2026-02-01' }, { endDate: '2020-01-01' }])(
    'when the range is reversed (%o), then the window is still a valid one',
    (query) => {
      const window = fetchWindow(query, NOW);
      expect(window.end).toBeGreaterThan(window.start);
    },
  );
});

describe('fetchWindow', () => {
  it.each([
    ['no dates', {}],
    ['only a start', { startDate: '2026-04-01' }],
    ['only an end', { endDate: '2026-04-20' }],
    ['both', { startDate: '2026-03-10', endDate: '2026-05-11' }],
  ])('when %s are given, then the window covers the range in every zone, with a day of buffers', (_case, query) => {
    const window = fetchWindow(query, NOW);
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      const range = resolveRange(query, Zone.of(zone), NOW);
      if (!range.ok) throw new Error(range.message);
      const from = Zone.of(zone).instantOf(Date.parse(range.startDate) / 86_400_000, 0);
      const to = Zone.of(zone).instantOf(Date.parse(range.endDate) / 86_400_000 + 1, 0);
      expect(window.start).toBeLessThanOrEqual(from - 86_400_000);
      expect(window.end).toBeGreaterThanOrEqual(to + 86_400_000);
    }
  });

  it.each([{ endDate: '2026-02-01' }, { endDate: '2020-01-01' }])(
    'when the range is reversed (%o), then the window is still a valid one',
    (query) => {
      const window = fetchWindow(query, NOW);
      expect(window.end).toBeGreaterThan(window.start);
    },
  );
});
