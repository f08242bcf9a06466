import { randomUUID } from 'node:crypto';
import type { ListMeta } from '@app/contracts';
import { inPageOrder, pageOfIds, sqlOf, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { TicketType } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type TicketTypeRow = TicketType;

/** Every field a create or an update writes (`sold` is the trigger's). */
export type TicketTypeState = Pick<TicketType, 'name' | 'priceCents' | 'quantity' | 'salesStart' | 'salesEnd'>;

export async function insertTicketType(
  db: Db,
  target: { organizationId: string; eventId: string },
  state: TicketTypeState,
): Promise<TicketTypeRow> {
  return db.ticketType.create({ data: { id: randomUUID(), ...target, ...state } });
}

export async function findTicketType(db: Db, organizationId: string, eventId: string, id: string): Promise<TicketTypeRow | null> {
  return db.ticketType.findFirst({ where: { id, eventId, organizationId } });
}

/** The event's types with their quotas and sold places: read under the event's lock, which every change of `sold` takes. */
export async function ticketTypesOfEvent(db: Db, eventId: string): Promise<TicketTypeRow[]> {
  return db.ticketType.findMany({ where: { eventId } });
}

/** Oldest first, then by id: served by ticket_types_event_list_idx (event, created_at, id). */
export const TICKET_TYPE_LIST: ListDefinition = {
  name: 'ticket-types',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of an event's ticket types (ids and meta in one statement, then the rows by Prisma); `sold` is a column. */
export async function listTicketTypes(
  db: { pool: Queryable; prisma: Db },
  filter: { organizationId: string; eventId: string },
  page: ListPage,
): Promise<{ rows: TicketTypeRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(filter.organizationId)}::uuid`, `t.event_id = ${params.add(filter.eventId)}::uuid`];
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'ticket_types', conditions, params });
  const rows = await db.prisma.ticketType.findMany({ where: { organizationId: filter.organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}

export async function updateTicketType(db: Db, id: string, state: Partial<TicketTypeState>): Promise<TicketTypeRow> {
  return db.ticketType.update({ where: { id }, data: state });
}

export async function deleteTicketType(db: Db, id: string): Promise<void> {
  await db.ticketType.delete({ where: { id } });
}

/** Whether a confirmed or waitlisted registration still has this type (TICKET_TYPE_IN_USE). */
export async function ticketTypeInUse(db: Db, id: string): Promise<boolean> {
  const { rows } = await sqlOf(db).query(
    `SELECT 1 FROM registrations WHERE ticket_type_id = $1::uuid AND status IN ('confirmed', 'waitlisted') LIMIT 1`,
    [id],
  );
  return rows.length > 0;
}
