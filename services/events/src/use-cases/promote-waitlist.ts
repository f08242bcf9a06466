import { registrationPromotedEvent } from '@app/contracts';
import { eventContextOf, recordEvent, type Caller } from '@app/service-kit';
import { lockEvent } from '../db/event.repository.js';
import type { Db } from '../db/prisma.js';
import { ticketTypesOfEvent } from '../db/ticket-type.repository.js';
import { confirmWaiting, waitingRegistrations } from '../db/waitlist.repository.js';
import { promotions } from '../domain/waitlist.js';
import { registrationRecord } from '../domain/registration.record.js';

/**
 * Promotes the event's waiting registrations that fit now, head first, in the transaction of the change that freed the
 * places (a cancellation, more slots, a larger quantity), under the event's row lock that this change already holds.
 * That lock serialises every registration write of the event, on every replica, so each promotion happens exactly once
 * and is committed (with its `events.registration.promoted` outbox row) or rolled back with the change itself: no
 * consumer, no replay to deduplicate. Only a published event promotes. Answers how many were promoted.
 */
export async function promoteWaitlist(tx: Db, caller: Caller, eventId: string): Promise<number> {
  const event = await lockEvent(tx, caller.organizationId, eventId);
  if (!event || event.status !== 'published' || event.placesWaitlisted === 0) return 0;
  const waiting = await waitingRegistrations(tx, eventId);
  const types = new Map((await ticketTypesOfEvent(tx, eventId)).map((type) => [type.id, type]));
  const promoted = await confirmWaiting(tx, promotions(waiting, event, types));
  for (const registration of promoted) {
    const record = registrationRecord(registration);
    await recordEvent(
      tx,
      registrationPromotedEvent,
      { id: registration.id, event_id: eventId, quantity: registration.quantity, record },
      eventContextOf(caller),
    );
  }
  return promoted.length;
}
