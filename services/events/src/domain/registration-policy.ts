import type { EventStatus } from '@app/contracts';

export interface CapacityView {
  status: EventStatus;
  startsAt: Date;
  endsAt: Date | null;
  slots: number | null;
}

export type Refusal = 'EVENT_NOT_OPEN' | 'EVENT_FULL';

/** An event is past once its end (or its start, when it has no end) is before now; the rest is upcoming. */
export function isPast(event: Pick<CapacityView, 'startsAt' | 'endsAt'>, now: Date): boolean {
  return (event.endsAt ?? event.startsAt).getTime() < now.getTime();
}

/** Places left, or null when the event has no limit. */
export function remainingPlaces(slots: number | null, placesTaken: number): number | null {
  return slots === null ? null : slots - placesTaken;
}

/**
 * Why a registration for `quantity` places would be refused, or null when it may be taken. The caller
 * must hold the event row locked, so `placesTaken` cannot change before the registration is written.
 */
export function registrationRefusal(event: CapacityView, placesTaken: number, quantity: number, now: Date): Refusal | null {
  if (event.status !== 'published' || isPast(event, now)) return 'EVENT_NOT_OPEN';
  const remaining = remainingPlaces(event.slots, placesTaken);
  if (remaining !== null && quantity > remaining) return 'EVENT_FULL';
  return null;
}
