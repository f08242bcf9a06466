import type { CalendarConnection, CalendarProvider, ConnectionStatus } from '@app/contracts';

/** The fields of a stored connection that its record shows: never its tokens. */
export interface CalendarConnectionRecordSource {
  id: string;
  provider: string;
  scheduleId: string;
  calendarIds: string[];
  writeCalendarId: string | null;
  status: string;
  lastSyncedAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

/**
 * A connection as the API shows it and as its change events carry it: never a token. Its ETag's version rises only
 * when a column shown here changes (the trigger, last made in migrations/0004, lists them): a field added here is added there.
 */
export function calendarConnectionRecord(row: CalendarConnectionRecordSource): CalendarConnection {
  return {
    id: row.id,
    provider: row.provider as CalendarProvider,
    schedule_id: row.scheduleId,
    calendar_ids: row.calendarIds,
    write_calendar_id: row.writeCalendarId,
    status: row.status as ConnectionStatus,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
  };
}
