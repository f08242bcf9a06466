import { registrationCancelledEvent, registrationCreatedEvent, type CreateRegistrationBody } from '@app/contracts';
import { AppError, recordEvent } from '@app/service-kit';
import { findEvent, lockEvent } from '../db/event.repository.js';
import {
  cancelRegistration as cancelRegistrationRow,
  findRegistration,
  insertRegistration,
  listRegistrations as listRegistrationRows,
  type RegistrationRow,
} from '../db/registration.repository.js';
import { registrationRefusal } from '../domain/registration-policy.js';
import { eventContext, notFoundError, requireId, write, type Caller, type UseCaseContext } from './context.js';

const REFUSALS = {
  EVENT_NOT_OPEN: 'Event is not open for registration',
  EVENT_FULL: 'Event is full',
} as const;

/**
 * Takes `quantity` places. The event row stays locked from the capacity check to the commit, so
 * concurrent registrations queue on it and never take more than `slots` places together.
 */
export async function register(
  eventId: string,
  body: CreateRegistrationBody,
  caller: Caller,
  ctx: UseCaseContext,
): Promise<RegistrationRow> {
  requireId(eventId, 'Event');
  return write(ctx, async (tx) => {
    const event = await lockEvent(tx, caller.organizationId, eventId);
    if (!event) throw notFoundError('Event');
    const refusal = registrationRefusal(event, event.placesTaken, body.quantity, ctx.now());
    if (refusal) throw new AppError(refusal, REFUSALS[refusal]);
    const registration = await insertRegistration(tx, { organizationId: caller.organizationId, eventId, ...body });
    await recordEvent(
      tx,
      registrationCreatedEvent,
      { id: registration.id, event_id: eventId, quantity: registration.quantity },
      eventContext(caller),
    );
    return registration;
  });
}

export async function listRegistrations(
  eventId: string,
  query: { status?: string; limit: number; offset: number },
  caller: Caller,
  ctx: UseCaseContext,
): Promise<{ rows: RegistrationRow[]; total: number }> {
  requireId(eventId, 'Event');
  if (!(await findEvent(ctx.prisma, caller.organizationId, eventId, false))) throw notFoundError('Event');
  return listRegistrationRows(ctx.prisma, { organizationId: caller.organizationId, eventId, ...query });
}

/** Frees the registration's places; cancelling one twice is an invalid transition, as for bookings. */
export async function cancelRegistration(eventId: string, id: string, caller: Caller, ctx: UseCaseContext): Promise<RegistrationRow> {
  requireId(eventId, 'Registration');
  requireId(id, 'Registration');
  return write(ctx, async (tx) => {
    const registration = await cancelRegistrationRow(tx, caller.organizationId, eventId, id);
    if (!registration) {
      const existing = await findRegistration(tx, caller.organizationId, eventId, id);
      if (!existing) throw notFoundError('Registration');
      throw new AppError('INVALID_TRANSITION', `Cannot transition from ${existing.status} to cancelled`);
    }
    await recordEvent(tx, registrationCancelledEvent, { id, event_id: eventId, quantity: registration.quantity }, eventContext(caller));
    return registration;
  });
}
