import { randomUUID } from 'node:crypto';
import { sqlOf } from '@app/service-kit';
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

export async function listEventTypes(
  db: Db,
  organizationId: string,
  filter: { active: boolean; limit: number; offset: number },
): Promise<{ rows: EventTypeRow[]; total: number }> {
  const where = { organizationId, isActive: filter.active };
  const [rows, total] = await Promise.all([
    db.eventType.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: filter.limit, skip: filter.offset }),
    db.eventType.count({ where }),
  ]);
  return { rows, total };
}

/** Updates the event type of the organization; null when there is none. A taken slug throws P2002. */
/** An event type of the organization under its row lock (until the transaction ends), as it is now; null when there is none. */
export async function lockEventType(db: Db, organizationId: string, id: string): Promise<EventTypeRow | null> {
  const { rows } = await sqlOf(db).query('SELECT id FROM event_types WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE', [
    id,
    organizationId,
  ]);
  return rows.length === 0 ? null : findEventType(db, organizationId, id);
}

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
