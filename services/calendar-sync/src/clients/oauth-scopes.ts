/**
 * What a connection's tokens may do: read free/busy (every connection), or also write events (write-back). The consent
 * URL asks for write scopes only when the connection asks for write-back, and a refresh asks for what the connection
 * needs (Microsoft's refresh names its scopes, and a read-scoped token cannot write).
 */
export type TokenAccess = 'read' | 'write';

export const accessOf = (writeCalendarId: string | null): TokenAccess => (writeCalendarId === null ? 'read' : 'write');

/** Free/busy is all a busy-time blocker needs; write-back adds the events scope (insert, patch, delete, list its own). */
export const GOOGLE_SCOPES: Record<TokenAccess, string[]> = {
  read: ['https://www.googleapis.com/auth/calendar.freebusy'],
  write: ['https://www.googleapis.com/auth/calendar.freebusy', 'https://www.googleapis.com/auth/calendar.events'],
};

/** Delegated permission to read (or read and write) calendars, plus a refresh token. */
export const MICROSOFT_SCOPES: Record<TokenAccess, string> = {
  read: 'offline_access Calendars.Read',
  write: 'offline_access Calendars.ReadWrite',
};
