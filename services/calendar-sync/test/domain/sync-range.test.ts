import { describe, expect, it } from 'vitest';
import { chunk, chunkRange, syncRange } from '../../src/domain/sync-range.js';

describe('syncRange', () => {
  it('when synced, then the range starts at the current minute and spans 62 days', () => {
    const range = syncRange(new Date('2026-03-10T12:34:56.789Z'));
    expect(range.start.toISOString()).toBe('2026-03-10T12:34:00.000Z');
    expect(range.end.toISOString()).toBe('2026-05-11T12:34:00.000Z');
  });
});

describe('chunkRange / chunk', () => {
  it('when a range is longer than the provider allows, then it is cut into consecutive pieces', () => {
    const range = { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2026-07-01T00:00:00Z') };
    const pieces = chunkRange(range, 90);
    expect(pieces.map((p) => [p.start.toISOString().slice(0, 10), p.end.toISOString().slice(0, 10)])).toEqual([
      ['2026-01-01', '2026-04-01'],
      ['2026-04-01', '2026-06-30'],
      ['2026-06-30', '2026-07-01'],
    ]);
    expect(chunkRange(syncRange(new Date()), 90)).toHaveLength(1);
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
