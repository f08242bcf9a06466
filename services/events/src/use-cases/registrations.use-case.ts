import {
  registrationCancelledEvent,
  registrationCreatedEvent,
  type CreatedRegistration,
  type CreateRegistrationBody,
  type ListMeta,
  type ListRegistrationsQuery,
  type RegistrationRecord,
} from '@app/contracts';
import {
  AppError,
  clientSecretOpens,
  eventContextOf,
  isPublishable,
  issueClientSecret,
  listPage,
  notFound,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import { findEvent, lockEvent } from '../db/event.repository.js';
import {
  cancelRegistration as cancelRegistrationRow,
  findRegistration,
  insertRegistration,
  listRegistrations as listRegistrationRows,
  lockRegistration,
  REGISTRATION_LIST,
} from '../db/registration.repository.js';
import { checkedAnswers } from '../domain/answers-schema.js';
import { registrationRecord } from '../domain/registration.record.js';
import { write, type UseCaseContext } from './context.js';
import { promoteWaitlist } from './promote-waitlist.js';
import { admit } from './registration-admission.js';

/**
 * Takes `quantity` places, or a place in the waitlist. The event row stays locked from the capacity check to the commit,
 * so concurrent registrations queue on it and never take more than `slots` places (or a type's quantity) together.
 * A publishable key sees published events only: any other is its 404, not a 409 that would tell a draft exists.
 * Every registration gets a `client_secret`, answered here only (its hash is stored; the event carries the record).
 */
export async function register(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, registration: body }: { eventId: string; registration: CreateRegistrationBody },
): Promise<CreatedRegistration> {
  const eventId = recordId(rawEventId, 'Event');
  const clientSecret = issueClientSecret();
  return write(ctx, async (tx) => {
    const event = await lockEvent(tx, caller.organizationId, eventId);
    if (!event || (isPublishable(caller) && event.status !== 'published')) throw notFound('Event');
    const answers = checkedAnswers(event.questions, body.answers); // 400 naming the question id
    const placement = await admit(tx, event, body, ctx.now()); // 400 ticket_type_id, 409s, or the waitlist
    const registration = await insertRegistration(tx, {
      organizationId: caller.organizationId,
      eventId,
      name: body.name,
      email: body.email,
      quantity: body.quantity,
      answers,
      ...placement,
      clientSecretHash: clientSecret.hash,
    });
    const record = registrationRecord(registration);
    await recordEvent(
      tx,
      registrationCreatedEvent,
      { id: registration.id, event_id: eventId, quantity: registration.quantity, record },
      eventContextOf(caller),
    );
    return { ...record, client_secret: clientSecret.secret };
  });
}

export async function listRegistrations(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, ...query }: { eventId: string } & ListRegistrationsQuery,
): Promise<{ items: RegistrationRecord[]; meta: ListMeta }> {
  const eventId = recordId(rawEventId, 'Event');
  if (!(await findEvent(ctx.prisma, caller.organizationId, eventId, false))) throw notFound('Event');
  const filter = { organizationId: caller.organizationId, eventId, status: query.status };
  const page = listPage(REGISTRATION_LIST, { organizationId: caller.organizationId, filters: { eventId, status: query.status } }, query);
  const { rows, meta } = await listRegistrationRows(ctx, filter, page);
  return { items: rows.map(registrationRecord), meta };
}

/**
 * Frees the registration's places; cancelling one twice is an invalid transition, as for bookings. A publishable key
 * must bring the registration's own `client_secret`: without it, or with any other, the registration is a 404 (as
 * an unknown one), so a guess learns nothing. Other keys may cancel any registration of the organization.
 */
export async function cancelRegistration(
  ctx: UseCaseContext,
  caller: Caller,
  {
    eventId: rawEventId,
    id: rawId,
    ifMatch,
    clientSecret,
  }: { eventId: string; id: string; ifMatch?: IfMatch | undefined; clientSecret?: string | undefined },
): Promise<RegistrationRecord> {
  const eventId = recordId(rawEventId, 'Registration');
  const id = recordId(rawId, 'Registration');
  return write(ctx, async (tx) => {
    // The event's lock first, as every registration write takes it: the freed places and the promotion are one step.
    if (!(await lockEvent(tx, caller.organizationId, eventId))) throw notFound('Registration');
    if (isPublishable(caller)) {
      const own = await findRegistration(tx, caller.organizationId, eventId, id);
      if (!own || !clientSecretOpens(own.clientSecretHash, clientSecret)) throw notFound('Registration');
    }
    if (ifMatch) {
      // Checked under the registration's row lock, which the cancel then keeps.
      const locked = await lockRegistration(tx, caller.organizationId, eventId, id);
      if (!locked) throw notFound('Registration');
      requireMatch(ifMatch, locked);
    }
    const registration = await cancelRegistrationRow(tx, caller.organizationId, eventId, id);
    if (!registration) {
      const existing = await findRegistration(tx, caller.organizationId, eventId, id);
      if (!existing) throw notFound('Registration');
      throw new AppError('INVALID_TRANSITION', `Cannot transition from ${existing.status} to cancelled`);
    }
    const record = registrationRecord(registration);
    await recordEvent(
      tx,
      registrationCancelledEvent,
      { id, event_id: eventId, quantity: registration.quantity, record },
      eventContextOf(caller),
    );
    await promoteWaitlist(tx, caller, eventId);
    return record;
  });
}

/** GET /api/v1/events/{id}/registrations/{registrationId}: one registration of the event, any status, with its version. */
export async function getRegistration(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, id: rawId }: { eventId: string; id: string },
): Promise<Versioned<RegistrationRecord>> {
  const registration = await findRegistration(
    ctx.prisma,
    caller.organizationId,
    recordId(rawEventId, 'Registration'),
    recordId(rawId, 'Registration'),
  );
  if (!registration) throw notFound('Registration');
  return { record: registrationRecord(registration), version: registration.version };
}
