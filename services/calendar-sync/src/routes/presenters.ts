import type { CalendarConnection, CalendarProvider, ConnectionStatus } from '@app/contracts';
import type { CalendarConnection as ConnectionRow } from '../generated/prisma/client.js';

/** A connection as the API shows it: never a token. */
export function presentConnection(row: ConnectionRow): CalendarConnection {
  return {
    id: row.id,
    provider: row.provider as CalendarProvider,
    schedule_id: row.scheduleId,
    calendar_ids: row.calendarIds,
    status: row.status as ConnectionStatus,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
  };
}
