import type { EventStatus } from '@app/contracts';

export interface CapacityView {
  status: EventStatus;
  startsAt: Date;
  endsAt: Date | null;
  slots: number | null;
}

/** An event is past once its end (or its start, when it has no end) is before now; the rest is upcoming. */
export function isPast(event: Pick<CapacityView, 'startsAt' | 'endsAt'>, now: Date): boolean {
  return (event.endsAt ?? event.startsAt).getTime() < now.getTime();
}

/** Places left, or null when the event has no limit. */
export function remainingPlaces(slots: number | null, placesTaken: number): number | null {
  return slots === null ? null : slots - placesTaken;
}

/** Whether the event takes registrations: published and not past (else EVENT_NOT_OPEN). */
export function isOpenForRegistration(event: CapacityView, now: Date): boolean {
  return event.status === 'published' && !isPast(event, now);
}
