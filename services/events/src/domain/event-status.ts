import type { EventStatus } from '@app/contracts';

/** Status moves of API.md; published→draft is allowed only while no place is taken. */
const MOVES: Record<EventStatus, readonly EventStatus[]> = {
  draft: ['published', 'cancelled'],
  published: ['cancelled', 'draft'],
  cancelled: [],
};

/**
 * Whether an event may move from `from` to `to` given the places taken (sum of active registration
 * quantities). Staying in the same status is not a move and is always allowed.
 */
export function canTransition(from: EventStatus, to: EventStatus, placesTaken: number): boolean {
  if (from === to) return true;
  if (!MOVES[from].includes(to)) return false;
  return !(from === 'published' && to === 'draft' && placesTaken > 0);
}

export function transitionMessage(from: EventStatus, to: EventStatus): string {
  return `Cannot transition from ${from} to ${to}`;
}
