import { isUuid, type CalendarProvider, type ConnectionStatus } from '@app/contracts';
import { sqlOf } from '@app/service-kit';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { CalendarConnection as ConnectionRow, Prisma } from '../generated/prisma/client.js';
import type { Db } from './prisma.js';

export interface NewConnection {
  id: string;
  organizationId: string;
  provider: CalendarProvider;
  scheduleId: string;
  calendarIds: string[];
  timeZone: string;
  tokens: SealedTokens;
}

export interface ConnectionFilter {
  scheduleId?: string | undefined;
  provider?: CalendarProvider | undefined;
  status?: ConnectionStatus | undefined;
}

/** Inserts the connection, due for its first sync at once. */
export function insertConnection(db: Db, input: NewConnection): Promise<ConnectionRow> {
  const { tokens, ...connection } = input;
  return db.calendarConnection.create({ data: { ...connection, ...tokens, nextSyncAt: new Date() } });
}

export function findConnection(db: Db, organizationId: string, id: string): Promise<ConnectionRow | null> {
  return db.calendarConnection.findFirst({ where: { id, organizationId } });
}

export async function listConnections(
  db: Db,
  organizationId: string,
  filter: ConnectionFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ConnectionRow[]; total: number }> {
  // A malformed schedule id names no schedule (and must not reach the database as a cast error).
  if (filter.scheduleId !== undefined && !isUuid(filter.scheduleId)) return { rows: [], total: 0 };
  const where: Prisma.CalendarConnectionWhereInput = {
    organizationId,
    scheduleId: filter.scheduleId,
    provider: filter.provider,
    status: filter.status,
  };
  const [rows, total] = await Promise.all([
    db.calendarConnection.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: page.limit, skip: page.offset }),
    db.calendarConnection.count({ where }),
  ]);
  return { rows, total };
}

/**
 * Locks the connection's row until the transaction ends and answers its schedule and version; null when the
 * organization has no such connection. A sync finishing meanwhile waits for the lock (or commits first).
 */
export async function lockConnection(
  db: Db,
  organizationId: string,
  id: string,
): Promise<{ id: string; scheduleId: string; version: number } | null> {
  const { rows } = await sqlOf(db).query<{ id: string; scheduleId: string; version: number }>(
    `SELECT id::text AS id, schedule_id::text AS "scheduleId", version FROM calendar_connections
      WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE`,
    [id, organizationId],
  );
  return rows[0] ?? null;
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
