import {
  calendarConnectionCreatedEvent,
  calendarConnectionRemovedEvent,
  type CalendarConnection,
  type CalendarProvider,
  type ConnectionStatus,
  isUuid,
} from '@app/contracts';
import type { SealedTokens } from '../domain/connection-tokens.js';
import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import { toConnection } from './connection.mapper.js';
import { recordEvent } from '@app/service-kit';

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
  scheduleId?: string;
  provider?: CalendarProvider;
  status?: ConnectionStatus;
}

/** Connections of an organization: creation, reads, deletion and manual sync requests. */
export class ConnectionRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Inserts the connection, due for its first sync at once. */
  async insert(input: NewConnection): Promise<CalendarConnection> {
    const row = await this.prisma.$transaction(async (tx) => {
      const created = await tx.calendarConnection.create({
        data: {
          id: input.id,
          organizationId: input.organizationId,
          provider: input.provider,
          scheduleId: input.scheduleId,
          calendarIds: input.calendarIds,
          timeZone: input.timeZone,
          ...input.tokens,
          nextSyncAt: new Date(),
        },
      });
      await recordEvent(
        tx,
        calendarConnectionCreatedEvent,
        { connection_id: created.id, schedule_id: created.scheduleId, provider: input.provider, calendar_ids: input.calendarIds },
        { organizationId: input.organizationId },
      );
      return created;
    });
    return toConnection(row);
  }

  async find(organizationId: string, id: string): Promise<CalendarConnection | null> {
    if (!isUuid(id)) return null;
    const row = await this.prisma.calendarConnection.findFirst({ where: { id, organizationId } });
    return row ? toConnection(row) : null;
  }

  async list(organizationId: string, filter: ConnectionFilter, page: { limit: number; offset: number }) {
    if (filter.scheduleId !== undefined && !isUuid(filter.scheduleId)) return { rows: [], total: 0 };
    const where: Prisma.CalendarConnectionWhereInput = {
      organizationId,
      scheduleId: filter.scheduleId,
      provider: filter.provider,
      status: filter.status,
    };
    const [rows, total] = await Promise.all([
      this.prisma.calendarConnection.findMany({
        where,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: page.limit,
        skip: page.offset,
      }),
      this.prisma.calendarConnection.count({ where }),
    ]);
    return { rows: rows.map(toConnection), total };
  }

  /**
   * Deletes the connection and records its removal, under the row lock: a sync finishing at the same time
   * either commits its busy update first or finds the row gone and publishes nothing.
   */
  async remove(organizationId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ schedule_id: string }[]>`
        SELECT schedule_id::text AS schedule_id FROM calendar_connections
         WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
      const row = locked[0];
      if (!row) return false;
      await tx.calendarConnection.delete({ where: { id } });
      await recordEvent(tx, calendarConnectionRemovedEvent, { connection_id: id, schedule_id: row.schedule_id }, { organizationId });
      return true;
    });
  }

  /**
   * Makes the connection due now (or when the provider's Retry-After ends). A sync already running notices
   * `sync_requested_at` when it finishes and runs again, so the request is never swallowed.
   */
  async requestSync(organizationId: string, id: string): Promise<CalendarConnection | null> {
    if (!isUuid(id)) return null;
    const updated = await this.prisma.$queryRaw<{ id: string }[]>`
      UPDATE calendar_connections
         SET next_sync_at = GREATEST(now(), COALESCE(retry_not_before, now())), sync_requested_at = now(), updated_at = now()
       WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid AND status <> 'reauth_required'
      RETURNING id::text AS id`;
    return updated.length > 0 ? this.find(organizationId, id) : null;
  }
}
