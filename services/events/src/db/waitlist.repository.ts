import { sqlOf } from '@app/service-kit';
import type { Waiting } from '../domain/waitlist.js';
import type { Db } from './prisma.js';
import type { RegistrationRow } from './registration.repository.js';

/*
 * The waitlist of an event. Every function here runs under the event's row lock (lockEvent), which serialises every
 * registration write of the event: positions are given and registrations promoted by one transaction at a time.
 */

/** The next position of the event's waitlist: one past the last given (positions are never reused). */
export async function nextWaitlistPosition(db: Db, eventId: string): Promise<number> {
  const { rows } = await sqlOf(db).query<{ position: number }>(
    'UPDATE events SET waitlist_last_position = waitlist_last_position + 1 WHERE id = $1::uuid RETURNING waitlist_last_position AS position',
    [eventId],
  );
  const [row] = rows;
  if (!row) throw new Error('expected the locked event');
  return row.position;
}

/** The event's waiting registrations, head first (registrations_event_waitlist_idx). */
export async function waitingRegistrations(db: Db, eventId: string): Promise<Waiting[]> {
  const { rows } = await sqlOf(db).query<Waiting>(
    `SELECT id::text AS id, quantity, ticket_type_id::text AS "ticketTypeId" FROM registrations
      WHERE event_id = $1::uuid AND status = 'waitlisted' ORDER BY waitlist_position`,
    [eventId],
  );
  return rows;
}

/**
 * Confirms these registrations if they are still waiting (the trigger moves their places); the rows it changed, in the
 * given order, so a registration no longer waiting is never announced as promoted.
 */
export async function confirmWaiting(db: Db, ids: readonly string[]): Promise<RegistrationRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.registration.updateManyAndReturn({
    where: { id: { in: [...ids] }, status: 'waitlisted' },
    data: { status: 'confirmed', waitlistPosition: null },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
