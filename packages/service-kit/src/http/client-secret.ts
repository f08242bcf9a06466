import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A booking's or registration's `client_secret` (API.md "Keys"): `cs_` + 32 random base64url characters (192 bits
 * from the CSPRNG), shown once in the 201 and stored as its SHA-256. It lets the attendee holding it, through a
 * publishable key, read, reschedule or cancel that one record, and nothing else.
 */
export interface IssuedClientSecret {
  secret: string;
  hash: Buffer;
}

const CLIENT_SECRET_SHAPE = /^cs_[A-Za-z0-9_-]{32,128}$/;

export function issueClientSecret(): IssuedClientSecret {
  const secret = `cs_${randomBytes(24).toString('base64url')}`;
  return { secret, hash: clientSecretHash(secret) };
}

export function clientSecretHash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * True when `given` is the secret whose hash is stored. Compared in constant time over the hashes, so neither the
 * secret's length nor its first differing character shows in the answer's timing.
 */
export function clientSecretOpens(storedHash: Uint8Array | null, given: string | undefined): boolean {
  if (storedHash === null || given === undefined || !CLIENT_SECRET_SHAPE.test(given)) return false;
  const hash = clientSecretHash(given);
  return storedHash.length === hash.length && timingSafeEqual(storedHash, hash);
}
