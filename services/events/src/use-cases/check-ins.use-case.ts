import { registrationCheckedInEvent, type CheckInRecord, type RegistrationRecord } from '@app/contracts';
import {
  AppError,
  eventContextOf,
  notFound,
  recordEvent,
  recordId,
  requireMatch,
  sqlOf,
  withTransaction,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import { checkInByCode, eventStatusOf, registrationWithVersion, ticketState, undoCheckInRow } from '../db/check-in.repository.js';
import { lockRegistration } from '../db/registration.repository.js';
import { registrationRecord } from '../domain/registration.record.js';
import { write, type UseCaseContext } from './context.js';

/** Events whose doors are open: a draft or cancelled event admits nobody (a past one still may, late scans included). */
const CHECKABLE_EVENTS: ReadonlySet<string> = new Set(['published']);

/**
 * A scan at the door. Refusals in API.md's order: the event (404, then 409 EVENT_NOT_OPEN), the code within it (404),
 * the registration's status (409 NOT_CHECKABLE), then a ticket already in (409 ALREADY_CHECKED_IN, naming the first
 * check-in's time). The event's row is read, never locked, and the check-in is one conditional UPDATE of the
 * registration's row: of concurrent scans of one code exactly one is a 201, and scans of other codes never wait.
 */
export async function checkIn(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, ticketCode }: { eventId: string; ticketCode: string },
): Promise<CheckInRecord> {
  const eventId = recordId(rawEventId, 'Event');
  const key = { organizationId: caller.organizationId, eventId, ticketCode };
  const admitted = await withTransaction(ctx.pool, async (tx) => {
    const status = await eventStatusOf(tx, caller.organizationId, eventId);
    if (status === null) throw notFound('Event');
    if (!CHECKABLE_EVENTS.has(status)) throw new AppError('EVENT_NOT_OPEN', 'Event is not open for check-in');
    const at = ctx.now();
    const checkedIn = await checkInByCode(tx, key, at);
    if (!checkedIn) throw refusalOf(await ticketState(tx, key));
    const registration = registrationRecord(checkedIn);
    await recordEvent(
      tx,
      registrationCheckedInEvent,
      { id: registration.id, event_id: eventId, quantity: registration.quantity, record: registration },
      eventContextOf(caller),
    );
    return { registration_id: registration.id, checked_in_at: registration.checked_in_at ?? at.toISOString() };
  });
  ctx.relay.wake();
  return admitted;
}

/** Why a code was not checked in: unknown here, not checkable (checked before an earlier check-in), or already in. */
function refusalOf(ticket: { status: string; checkedInAt: Date | null } | null): AppError {
  if (!ticket) return notFound('Ticket');
  if (ticket.status === 'cancelled' || ticket.status === 'waitlisted')
    return new AppError('NOT_CHECKABLE', `Ticket cannot be checked in: its registration is ${ticket.status}`);
  if (ticket.checkedInAt) return new AppError('ALREADY_CHECKED_IN', `Ticket already checked in at ${ticket.checkedInAt.toISOString()}`);
  // Not reachable while the UPDATE's conditions are these three; kept so a new status cannot pass silently.
  return new AppError('NOT_CHECKABLE', `Ticket cannot be checked in: its registration is ${ticket.status}`);
}

/**
 * DELETE …/registrations/{rid}/check-in: the registration as not checked in. Idempotent: one that is not checked in
 * is answered as it is. If-Match is checked under the registration's row lock, which the undo then keeps. No domain
 * event: the webhook types have none for an undo (the registration's `checked_in_at` says it when next read).
 */
export async function undoCheckIn(
  ctx: UseCaseContext,
  caller: Caller,
  { eventId: rawEventId, id: rawId, ifMatch }: { eventId: string; id: string; ifMatch?: IfMatch | undefined },
): Promise<Versioned<RegistrationRecord>> {
  const eventId = recordId(rawEventId, 'Registration');
  const id = recordId(rawId, 'Registration');
  const key = { organizationId: caller.organizationId, eventId, id };
  return write(ctx, async (tx) => {
    const locked = await lockRegistration(tx, caller.organizationId, eventId, id);
    if (!locked) throw notFound('Registration');
    requireMatch(ifMatch, locked);
    const row = (await undoCheckInRow(sqlOf(tx), key)) ?? (await registrationWithVersion(sqlOf(tx), key));
    if (!row) throw notFound('Registration');
    return { record: registrationRecord(row), version: row.version };
  });
}
