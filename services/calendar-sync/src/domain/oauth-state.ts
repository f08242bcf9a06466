import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { OAuthCalendarProvider as CalendarProvider } from '@app/contracts';

/** What the OAuth `state` carries through the provider's consent page and back to the callback. */
export interface OAuthState {
  organizationId: string;
  scheduleId: string;
  provider: CalendarProvider;
  calendarIds: string[];
  /** The calendar to write bookings to (write-back), or null. */
  writeCalendarId: string | null;
  /** Single use: the callback records it, so a replayed callback is refused. */
  nonce: string;
  expiresAt: Date;
}

interface Payload {
  o: string;
  s: string;
  p: CalendarProvider;
  c: string[];
  /** Absent in states signed before write-back (read only). */
  w?: string | null;
  n: string;
  e: number;
}

const STATE_LIFETIME_MS = 10 * 60_000;

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** `base64url(payload).base64url(hmac)`: tamper-proof and expiring, with no server-side session. */
export function signState(secret: string, state: Omit<OAuthState, 'nonce' | 'expiresAt'>, now: Date): { token: string; state: OAuthState } {
  const full: OAuthState = { ...state, nonce: randomUUID(), expiresAt: new Date(now.getTime() + STATE_LIFETIME_MS) };
  const payload: Payload = {
    o: full.organizationId,
    s: full.scheduleId,
    p: full.provider,
    c: full.calendarIds,
    w: full.writeCalendarId,
    n: full.nonce,
    e: full.expiresAt.getTime(),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { token: `${body}.${mac(secret, body).toString('base64url')}`, state: full };
}

/** The state if the signature holds, it has not expired and it was issued for `provider`; otherwise null. */
export function verifyState(secret: string, token: string, provider: CalendarProvider, now: Date): OAuthState | null {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    return null;
  }
  if (payload.p !== provider || typeof payload.e !== 'number' || payload.e <= now.getTime()) return null;
  return {
    organizationId: payload.o,
    scheduleId: payload.s,
    provider: payload.p,
    calendarIds: payload.c,
    writeCalendarId: typeof payload.w === 'string' ? payload.w : null,
    nonce: payload.n,
    expiresAt: new Date(payload.e),
  };
}
