import { describe, expect, it } from 'vitest';
import { limitExceeded, promotions, salesOpen, type Waiting } from '../src/domain/waitlist.js';

const waiting = (id: string, quantity: number, ticketTypeId: string | null = null): Waiting => ({ id, quantity, ticketTypeId });

describe('promotions', () => {
  it('when places free up, then the head is promoted first and the walk goes on while each fits', () => {
    const queue = [waiting('a', 2), waiting('b', 1), waiting('c', 3)];

    expect(promotions(queue, { slots: 10, placesTaken: 7 }, new Map())).toEqual(['a', 'b']);
  });

  it('when the head does not fit, then nobody behind it is promoted, even one that would fit', () => {
    const queue = [waiting('a', 3), waiting('b', 1)];

    expect(promotions(queue, { slots: 10, placesTaken: 8 }, new Map())).toEqual([]);
  });

  it("when the head's ticket type is sold out, then the walk stops there although the event has room", () => {
    const types = new Map([
      ['vip', { quantity: 2, sold: 2 }],
      ['std', { quantity: null, sold: 0 }],
    ]);
    const queue = [waiting('a', 1, 'vip'), waiting('b', 1, 'std')];

    expect(promotions(queue, { slots: null, placesTaken: 5 }, types)).toEqual([]);
  });

  it('when promotions fill a ticket type, then the next one of that type waits', () => {
    const types = new Map([['vip', { quantity: 3, sold: 1 }]]);
    const queue = [waiting('a', 1, 'vip'), waiting('b', 1, 'vip'), waiting('c', 1, 'vip')];

    expect(promotions(queue, { slots: null, placesTaken: 0 }, types)).toEqual(['a', 'b']);
  });

  it('when slots is null and no type limits, then everyone is promoted', () => {
    expect(promotions([waiting('a', 50), waiting('b', 70)], { slots: null, placesTaken: 10 }, new Map())).toEqual(['a', 'b']);
  });
});

describe('limitExceeded', () => {
  it.each([
    [{ eventFree: 5, typeFree: 5 }, 5, null],
    [{ eventFree: 5, typeFree: 2 }, 3, 'SOLD_OUT'],
    [{ eventFree: 2, typeFree: 5 }, 3, 'EVENT_FULL'],
    [{ eventFree: 0, typeFree: 0 }, 1, 'SOLD_OUT'],
    [{ eventFree: null, typeFree: null }, 10_000, null],
  ] as const)('when the room is %j and %i places are asked for, then %s', (room, quantity, limit) => {
    expect(limitExceeded(room, quantity)).toBe(limit);
  });
});

describe('salesOpen', () => {
  const window = { salesStart: new Date('2030-01-01T00:00:00Z'), salesEnd: new Date('2030-02-01T00:00:00Z') };

  it.each([
    ['before the start', '2029-12-31T23:59:59.999Z', false],
    ['at the start', '2030-01-01T00:00:00.000Z', true],
    ['inside', '2030-01-15T00:00:00.000Z', true],
    ['at the end (excluded)', '2030-02-01T00:00:00.000Z', false],
  ])('when %s, then %s', (_case, now, open) => {
    expect(salesOpen(window, new Date(now))).toBe(open);
  });

  it('when no bounds are set, then sales are always open', () => {
    expect(salesOpen({ salesStart: null, salesEnd: null }, new Date('2000-01-01T00:00:00Z'))).toBe(true);
  });
});
