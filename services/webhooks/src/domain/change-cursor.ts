import { MAX_CURSOR_LENGTH } from '@app/contracts';
import { z } from 'zod';

/** Where an item stands in its organization's feed: its transaction id, its sequence in it, and its id. */
export interface FeedPosition {
  tx: string;
  seq: string;
  id: string;
}

/** What a cursor names: an item of one organization, at its position. */
export interface ChangeCursor extends FeedPosition {
  organizationId: string;
}

const VERSION = 1;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const digits = z.string().regex(/^-?\d{1,20}$/);

const encodedSchema = z.strictObject({ v: z.literal(VERSION), o: z.uuid(), t: digits, s: digits, e: z.uuid() });

/** The opaque cursor of an item: versioned JSON in base64url (it says nothing a client should rely on). */
export function encodeCursor(cursor: ChangeCursor): string {
  const encoded = { v: VERSION, o: cursor.organizationId, t: cursor.tx, s: cursor.seq, e: cursor.id };
  return Buffer.from(JSON.stringify(encoded)).toString('base64url');
}

/** The item a cursor names; null when it is not one this service wrote (wrong alphabet, length, JSON or shape). */
export function decodeCursor(text: string): ChangeCursor | null {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !BASE64URL.test(text)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = encodedSchema.safeParse(json);
  if (!parsed.success) return null;
  const { o, t, s, e } = parsed.data;
  return { organizationId: o.toLowerCase(), tx: t, seq: s, id: e.toLowerCase() };
}
