import { randomUUID } from 'node:crypto';
import { sqlOf } from '@app/service-kit';
import type { Registration } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type RegistrationRow = Registration;

export async function insertRegistration(
  db: Db,
  input: { organizationId: string; eventId: string; name: string; email: string; quantity: number },
): Promise<RegistrationRow> {
  return db.registration.create({ data: { id: randomUUID(), ...input } });
}

export async function listRegistrations(
  db: Db,
  filter: { organizationId: string; eventId: string; status?: string; limit: number; offset: number },
): Promise<{ rows: RegistrationRow[]; total: number }> {
  const where = {
    organizationId: filter.organizationId,
    eventId: filter.eventId,
    ...(filter.status ? { status: filter.status } : {}),
  };
  const [rows, total] = await Promise.all([
    db.registration.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: filter.limit, skip: filter.offset }),
    db.registration.count({ where }),
  ]);
  return { rows, total };
}

export async function findRegistration(db: Db, organizationId: string, eventId: string, id: string): Promise<RegistrationRow | null> {
  return db.registration.findFirst({ where: { id, eventId, organizationId } });
}

/** Locks a registration of the organization's event until the transaction ends and reads its version; null when there is none. */
export async function lockRegistration(
  db: Db,
  organizationId: string,
  eventId: string,
  id: string,
): Promise<{ id: string; version: number } | null> {
  const { rows } = await sqlOf(db).query<{ id: string; version: number }>(
    `SELECT id::text AS id, version FROM registrations
      WHERE id = $1::uuid AND event_id = $2::uuid AND organization_id = $3::uuid FOR UPDATE`,
    [id, eventId, organizationId],
  );
  return rows[0] ?? null;
}

/** Cancels an active registration; null when it is not active (already cancelled, or absent). */
export async function cancelRegistration(db: Db, organizationId: string, eventId: string, id: string): Promise<RegistrationRow | null> {
  const { count } = await db.registration.updateMany({
    where: { id, eventId, organizationId, status: 'active' },
    data: { status: 'cancelled', cancelledAt: new Date() },
  });
  return count === 0 ? null : findRegistration(db, organizationId, eventId, id);
}
