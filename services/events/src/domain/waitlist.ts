/*
 * Admission and promotion rules of registrations with ticket types and waitlists (API.md "Ticket types, waitlists…").
 * Pure: the caller holds the event row locked, so the places and quotas it passes cannot change until it commits.
 */

/** What limits one registration: the event's free places and its ticket type's (null: no limit). */
export interface Room {
  /** The event's slots minus its confirmed places; null when slots is null. */
  eventFree: number | null;
  /** The type's quantity minus its sold places; null without a type or without a quantity. */
  typeFree: number | null;
}

export type Limit = 'SOLD_OUT' | 'EVENT_FULL';

/** Which limit `quantity` places would exceed (the type's first, as API.md orders them), or null when they fit. */
export function limitExceeded(room: Room, quantity: number): Limit | null {
  if (room.typeFree !== null && quantity > room.typeFree) return 'SOLD_OUT';
  if (room.eventFree !== null && quantity > room.eventFree) return 'EVENT_FULL';
  return null;
}

/** Whether `now` is inside a type's sales window: from sales_start (included) to sales_end (excluded). */
export function salesOpen(window: { salesStart: Date | null; salesEnd: Date | null }, now: Date): boolean {
  if (window.salesStart && now.getTime() < window.salesStart.getTime()) return false;
  return !(window.salesEnd && now.getTime() >= window.salesEnd.getTime());
}

export interface Waiting {
  id: string;
  quantity: number;
  ticketTypeId: string | null;
}

export interface TypeRoom {
  quantity: number | null;
  sold: number;
}

/**
 * The waiting registrations to promote now, in order: strict first-in-first-out, so the walk stops at the first one
 * that does not fit (its type's quantity and the event's slots together), and nobody behind it jumps the queue.
 */
export function promotions(
  waiting: readonly Waiting[],
  event: { slots: number | null; placesTaken: number },
  types: ReadonlyMap<string, TypeRoom>,
): string[] {
  let eventFree = event.slots === null ? null : event.slots - event.placesTaken;
  const sold = new Map([...types].map(([id, type]) => [id, type.sold]));
  const promoted: string[] = [];
  for (const registration of waiting) {
    const type = registration.ticketTypeId === null ? undefined : types.get(registration.ticketTypeId);
    const typeSold = registration.ticketTypeId === null ? 0 : (sold.get(registration.ticketTypeId) ?? 0);
    const typeFree = type?.quantity == null ? null : type.quantity - typeSold;
    if (limitExceeded({ eventFree, typeFree }, registration.quantity) !== null) break;
    promoted.push(registration.id);
    if (eventFree !== null) eventFree -= registration.quantity;
    if (registration.ticketTypeId !== null) sold.set(registration.ticketTypeId, typeSold + registration.quantity);
  }
  return promoted;
}
