import type { BookingStatus } from '@app/contracts';

/** The spec's state table: every allowed move, and nothing else (no move to the same state either). */
const ALLOWED_MOVES: Readonly<Record<BookingStatus, readonly BookingStatus[]>> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['COMPLETED', 'CANCELLED', 'NO_SHOW'],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
};

export function canTransition(from: BookingStatus, to: BookingStatus): boolean {
  return ALLOWED_MOVES[from].includes(to);
}

/** The spec's message for a refused move. */
export function transitionRefusal(from: BookingStatus, to: BookingStatus): string {
  return `Cannot transition from ${from} to ${to}`;
}

/** Only a live booking can be moved to another time. */
export function canReschedule(status: BookingStatus): boolean {
  return status === 'PENDING' || status === 'CONFIRMED';
}
