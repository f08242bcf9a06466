import type { Interval } from '../domain/busy-windows.js';
import type { CalendarTokens } from '../domain/connection-tokens.js';
import type { TokenAccess } from './oauth-scopes.js';
import type { OwnEvents } from '../domain/own-busy-time.js';

export type { CalendarTokens };

/** Access tokens are refreshed this long before they expire, so a request never races the expiry. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * A connection's tokens during one sync or write: a provider that refreshes them puts the new ones here, and the caller
 * stores them. `access` is what the connection needs them for (a refresh asks for those scopes).
 */
export class TokenBox {
  changed = false;

  constructor(
    public current: CalendarTokens,
    readonly access: TokenAccess = 'read',
  ) {}

  replace(tokens: CalendarTokens): void {
    this.current = tokens;
    this.changed = true;
  }
}

export interface ReadBusyInput {
  tokens: TokenBox;
  calendarIds: readonly string[];
  range: Interval;
  /** The schedule's zone (Outlook all-day events block that local day). */
  timeZone: string;
  /** The events this service wrote for the connection's schedule: read back, they do not block it. */
  own: OwnEvents;
  signal: AbortSignal;
}

/** One calendar's answer: its busy windows, or why it could not be read (which is never taken to mean "free"). */
export type CalendarRead = { calendarId: string; ok: true; windows: Interval[] } | { calendarId: string; ok: false; error: string };

export interface CalendarReader {
  readBusy(input: ReadBusyInput): Promise<CalendarRead[]>;
}
