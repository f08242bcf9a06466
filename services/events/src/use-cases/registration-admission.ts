import type { CreateRegistrationBody } from '@app/contracts';
import { AppError, invalidInput } from '@app/service-kit';
import type { LockedEventRow } from '../db/event.repository.js';
import type { Db } from '../db/prisma.js';
import type { Placement } from '../db/registration.repository.js';
import { ticketTypesOfEvent } from '../db/ticket-type.repository.js';
import { nextWaitlistPosition } from '../db/waitlist.repository.js';
import { isOpenForRegistration, remainingPlaces } from '../domain/registration-policy.js';
import { limitExceeded, salesOpen } from '../domain/waitlist.js';

const REFUSALS = {
  EVENT_NOT_OPEN: 'Event is not open for registration',
  EVENT_FULL: 'Event is full',
  SOLD_OUT: 'Ticket type is sold out',
  SALES_CLOSED: 'Ticket sales are closed for this ticket type',
} as const;

const UNKNOWN_TYPE = 'ticket_type_id must be a ticket type of this event';

/**
 * Where a new registration goes, or why it is refused, in API.md's order: its ticket type (400 when missing on an event
 * with types, or not one of this event's), the event open (EVENT_NOT_OPEN), the type's sales window (SALES_CLOSED), its
 * quantity (SOLD_OUT), the event's slots (EVENT_FULL). On an event with a waitlist the last two refusals queue it
 * instead, and so does anyone already waiting: strict arrival order, nobody passes the queue. The event row is locked
 * by the caller, and every change of the counts read here takes that lock, so both limits hold under any concurrency.
 */
export async function admit(tx: Db, event: LockedEventRow, body: CreateRegistrationBody, now: Date): Promise<Placement> {
  const types = await ticketTypesOfEvent(tx, event.id);
  if (types.length > 0 && body.ticket_type_id === undefined)
    throw invalidInput('ticket_type_id', 'ticket_type_id is required on an event with ticket types');
  const type = body.ticket_type_id === undefined ? undefined : types.find((candidate) => candidate.id === body.ticket_type_id);
  if (body.ticket_type_id !== undefined && !type) throw invalidInput('ticket_type_id', UNKNOWN_TYPE);
  if (!isOpenForRegistration(event, now)) throw new AppError('EVENT_NOT_OPEN', REFUSALS.EVENT_NOT_OPEN);
  if (type && !salesOpen(type, now)) throw new AppError('SALES_CLOSED', REFUSALS.SALES_CLOSED);
  const room = {
    eventFree: remainingPlaces(event.slots, event.placesTaken),
    typeFree: type?.quantity == null ? null : type.quantity - type.sold,
  };
  const limit = limitExceeded(room, body.quantity);
  const someoneWaits = event.placesWaitlisted > 0;
  const ticketTypeId = type?.id ?? null;
  if (event.waitlist && (limit !== null || someoneWaits))
    return { status: 'waitlisted', waitlistPosition: await nextWaitlistPosition(tx, event.id), ticketTypeId };
  // A waitlist switched off keeps its queue: a newcomer does not pass it, even where it would fit.
  if (limit !== null || someoneWaits) throw new AppError(limit ?? 'EVENT_FULL', REFUSALS[limit ?? 'EVENT_FULL']);
  return { status: 'confirmed', waitlistPosition: null, ticketTypeId };
}
