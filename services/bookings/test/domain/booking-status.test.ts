import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, type BookingStatus } from '@app/contracts';
import { canReschedule, canTransition, transitionRefusal } from '../../src/domain/booking-status.js';

/** The spec's table, row by row; every pair not listed here must be refused. */
const ALLOWED: [BookingStatus, BookingStatus][] = [
  ['PENDING', 'CONFIRMED'],
  ['PENDING', 'CANCELLED'],
  ['CONFIRMED', 'COMPLETED'],
  ['CONFIRMED', 'CANCELLED'],
  ['CONFIRMED', 'NO_SHOW'],
];

const ALL_PAIRS = BOOKING_STATUSES.flatMap((from) => BOOKING_STATUSES.map((to) => [from, to] as const));

describe('booking status machine', () => {
  it.each(ALL_PAIRS)('when moving from %s to %s, then it follows the spec table', (from, to) => {
    const listed = ALLOWED.some(([a, b]) => a === from && b === to);
    expect(canTransition(from, to)).toBe(listed);
  });

  it('when a move is refused, then the message names both states as the spec does', () => {
    expect(transitionRefusal('CANCELLED', 'CONFIRMED')).toBe('Cannot transition from CANCELLED to CONFIRMED');
  });

  it.each([
    ['PENDING', true],
    ['CONFIRMED', true],
    ['CANCELLED', false],
    ['COMPLETED', false],
    ['NO_SHOW', false],
  ] as const)('when the booking is %s, then rescheduling allowed is %s', (status, allowed) => {
    expect(canReschedule(status)).toBe(allowed);
  });
});
