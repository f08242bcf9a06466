import { randomUUID } from 'node:crypto';
import type { ListMeta } from '@app/contracts';
import { inPageOrder, pageOfIds, sqlOf, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { Prisma, Registration } from '../generated/prisma/client.js';
import { newTicketCode } from '../domain/ticket-code.js';
import type { Db } from './prisma.js';

export type RegistrationRow = Registration;

/** Where a new registration goes: confirmed, or waitlisted at a position; with its ticket type, if the event has types. */
export interface Placement {
  status: 'confirmed' | 'waitlisted';
  waitlistPosition: number | null;
  ticketTypeId: string | null;
}

/** Draws of a ticket code before a clash is taken for a fault: with 34^10 codes even a second clash is out of reach. */
const TICKET_CODE_ATTEMPTS = 3;

export async function insertRegistration(
  db: Db,
  input: {
    organizationId: string;
    eventId: string;
    name: string;
    email: string;
    quantity: number;
    clientSecretHash: Uint8Array;
    answers: Record<string, unknown>;
  } & Placement,
): Promise<RegistrationRow> {
  // Prisma's Bytes wants a Uint8Array of its own ArrayBuffer: a Buffer may be a view of Node's shared pool.
  const data = { ...input, clientSecretHash: new Uint8Array(input.clientSecretHash), answers: input.answers as Prisma.InputJsonObject };
  // A new ticket code is unique in the organization by constraint: ON CONFLICT DO NOTHING (skipDuplicates) answers no
  // row on a clash (about one in 10^9 per pair) without aborting the transaction, and the next attempt draws again.
  for (let attempt = 1; attempt <= TICKET_CODE_ATTEMPTS; attempt += 1) {
    const [row] = await db.registration.createManyAndReturn({
      data: [{ id: randomUUID(), ...data, ticketCode: newTicketCode() }],
      skipDuplicates: true,
    });
    if (row) return row;
  }
  throw new Error(`no unique ticket code in ${TICKET_CODE_ATTEMPTS} draws`);
}

/** Oldest first, then by id: served by registrations_event_idx (event, created_at, id). */
export const REGISTRATION_LIST: ListDefinition = {
  name: 'registrations',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of an event's registrations (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listRegistrations(
  db: { pool: Queryable; prisma: Db },
  filter: { organizationId: string; eventId: string; status?: string | undefined },
  page: ListPage,
): Promise<{ rows: RegistrationRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(filter.organizationId)}::uuid`, `t.event_id = ${params.add(filter.eventId)}::uuid`];
  if (filter.status) conditions.push(`t.status = ${params.add(filter.status)}`);
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'registrations', conditions, params });
  const rows = await db.prisma.registration.findMany({ where: { organizationId: filter.organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
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

/** Cancels a confirmed or waitlisted registration (leaving the queue); null when it is neither (already cancelled, or absent). */
export async function cancelRegistration(db: Db, organizationId: string, eventId: string, id: string): Promise<RegistrationRow | null> {
  const { count } = await db.registration.updateMany({
    where: { id, eventId, organizationId, status: { in: ['confirmed', 'waitlisted'] } },
    data: { status: 'cancelled', cancelledAt: new Date(), waitlistPosition: null },
  });
  return count === 0 ? null : findRegistration(db, organizationId, eventId, id);
}
