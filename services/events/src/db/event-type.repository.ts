import { randomUUID } from 'node:crypto';
import type { ListMeta } from '@app/contracts';
import { inPageOrder, pageOfIds, SqlParams, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { EventType } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export type EventTypeRow = EventType;

/** Every field a create or an update writes. */
export type EventTypeState = Pick<
  EventType,
  'title' | 'slug' | 'description' | 'duration' | 'locationType' | 'locationDetails' | 'color' | 'requiresApproval' | 'isActive'
>;

/**
 * Inserts the event type unless its slug is already used in the organization; null then. ON CONFLICT
 * waits for a concurrent insert of the same slug to commit or roll back, so exactly one of them wins.
 */
export async function insertEventTypeUnlessSlugTaken(db: Db, organizationId: string, state: EventTypeState): Promise<EventTypeRow | null> {
  const rows = await db.eventType.createManyAndReturn({
    data: [{ id: randomUUID(), organizationId, ...state }],
    skipDuplicates: true,
  });
  return rows[0] ?? null;
}

/** Slugs of the organization that a generated `base` could collide with: `base` and `base-…`. */
export async function slugsLike(db: Db, organizationId: string, base: string): Promise<Set<string>> {
  const rows = await db.eventType.findMany({
    where: { organizationId, OR: [{ slug: base }, { slug: { startsWith: `${base}-` } }] },
    select: { slug: true },
  });
  return new Set(rows.map((row) => row.slug));
}

export async function findEventType(db: Db, organizationId: string, id: string): Promise<EventTypeRow | null> {
  return db.eventType.findFirst({ where: { id, organizationId } });
}

/** Oldest first, then by id: served by event_types_organization_list_idx (organization, is_active, created_at, id). */
export const EVENT_TYPE_LIST: ListDefinition = {
  name: 'event-types',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of the organization's event types (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listEventTypes(
  db: { pool: Queryable; prisma: Db },
  organizationId: string,
  filter: { active: boolean; activeOnly?: true },
  page: ListPage,
): Promise<{ rows: EventTypeRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`, `t.is_active = ${params.add(filter.active)}`];
  if (filter.activeOnly) conditions.push('t.is_active');
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'event_types', conditions, params });
  const rows = await db.prisma.eventType.findMany({ where: { organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}

/** Updates the event type of the organization; null when there is none. A taken slug throws P2002. */
export async function updateEventType(
  db: Db,
  organizationId: string,
  id: string,
  state: Partial<EventTypeState>,
): Promise<EventTypeRow | null> {
  const { count } = await db.eventType.updateMany({ where: { id, organizationId }, data: { ...state, updatedAt: new Date() } });
  return count === 0 ? null : findEventType(db, organizationId, id);
}

export async function deleteEventType(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { count } = await db.eventType.deleteMany({ where: { id, organizationId } });
  return count > 0;
}
