import { isUuid, type CalendarProvider, type ConnectionStatus, type ListMeta } from '@app/contracts';
import { inPageOrder, pageOfIds, SqlParams, sqlOf, type ListDefinition, type ListPage, type Queryable } from '@app/service-kit';
import type { SealedFeed } from '../domain/connection-feed.js';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { CalendarConnection as ConnectionRow } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export interface NewConnection {
  id: string;
  organizationId: string;
  provider: CalendarProvider;
  scheduleId: string;
  calendarIds: string[];
  writeCalendarId: string | null;
  timeZone: string;
  /** OAuth tokens, or an ICS connection's sealed URL. */
  credentials: SealedTokens | SealedFeed;
}

export interface ConnectionFilter {
  scheduleId?: string | undefined;
  provider?: CalendarProvider | undefined;
  status?: ConnectionStatus | undefined;
}

/** Inserts the connection, due for its first sync at once. */
export function insertConnection(db: Db, input: NewConnection): Promise<ConnectionRow> {
  const { credentials, ...connection } = input;
  return db.calendarConnection.create({ data: { ...connection, ...credentials, nextSyncAt: new Date() } });
}

export function findConnection(db: Db, organizationId: string, id: string): Promise<ConnectionRow | null> {
  return db.calendarConnection.findFirst({ where: { id, organizationId } });
}

/** Oldest first, then by id: served by calendar_connections_org_idx (organization, created_at, id). */
export const CONNECTION_LIST: ListDefinition = {
  name: 'calendar-connections',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of the organization's connections (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listConnections(
  db: { pool: Queryable; prisma: Db },
  organizationId: string,
  filter: ConnectionFilter,
  page: ListPage,
): Promise<{ rows: ConnectionRow[]; meta: ListMeta }> {
  // A malformed schedule id names no schedule (and must not reach the database as a cast error).
  if (filter.scheduleId !== undefined && !isUuid(filter.scheduleId)) return { rows: [], meta: page.meta({ total: 0, before: 0 }, []) };
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`];
  if (filter.scheduleId !== undefined) conditions.push(`t.schedule_id = ${params.add(filter.scheduleId)}::uuid`);
  if (filter.provider !== undefined) conditions.push(`t.provider = ${params.add(filter.provider)}`);
  if (filter.status !== undefined) conditions.push(`t.status = ${params.add(filter.status)}`);
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'calendar_connections', conditions, params });
  const rows = await db.prisma.calendarConnection.findMany({ where: { organizationId, id: { in: ids } } });
  return { rows: inPageOrder(ids, rows), meta };
}

/**
 * Locks the connection's row until the transaction ends and answers its schedule and version; null when the
 * organization has no such connection. A sync finishing meanwhile waits for the lock (or commits first).
 */
export async function lockConnection(
  db: Db,
  organizationId: string,
  id: string,
): Promise<{ id: string; scheduleId: string; provider: string; version: number } | null> {
  const { rows } = await sqlOf(db).query<{ id: string; scheduleId: string; provider: string; version: number }>(
    `SELECT id::text AS id, schedule_id::text AS "scheduleId", provider, version FROM calendar_connections
      WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE`,
    [id, organizationId],
  );
  return rows[0] ?? null;
}

/** Sets or clears write-back; the version trigger raises the ETag when it changes. */
export function setWriteCalendar(db: Db, id: string, writeCalendarId: string | null): Promise<ConnectionRow> {
  return db.calendarConnection.update({ where: { id }, data: { writeCalendarId, updatedAt: new Date() } });
}

export async function deleteConnection(db: Db, id: string): Promise<void> {
  await db.calendarConnection.delete({ where: { id } });
}

/**
 * Makes the connection due now (or when the provider's Retry-After ends). A sync already running notices
 * `sync_requested_at` when it finishes and runs again, so the request is never swallowed. False when the
 * organization has no such connection, or it needs re-authorization.
 */
export async function requestSync(db: Db, organizationId: string, id: string): Promise<boolean> {
  const { rowCount } = await sqlOf(db).query(
    `UPDATE calendar_connections
        SET next_sync_at = GREATEST(now(), COALESCE(retry_not_before, now())), sync_requested_at = now(), updated_at = now()
      WHERE id = $1::uuid AND organization_id = $2::uuid AND status <> 'reauth_required'
     RETURNING id::text AS id`,
    [id, organizationId],
  );
  return rowCount === 1;
}
