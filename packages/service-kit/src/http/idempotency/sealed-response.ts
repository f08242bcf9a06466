import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What is stored in place of an Idempotency-Key: its SHA-256 (the key itself opens the stored response). */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function cipherKey(scope: string, key: string): Buffer {
  return createHash('sha256').update(`idempotency-response\u0000${scope}\u0000${key}`).digest();
}

/**
 * A first response encrypted (AES-256-GCM) under a key derived from the Idempotency-Key and its scope. Responses
 * can hold what is shown once and otherwise kept only as a hash (the admin API's new API keys): the table keeps
 * them in a form only the client's own Idempotency-Key opens, and the key only as its digest.
 */
export function sealResponse(scope: string, key: string, body: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(scope, key), iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The response sealResponse sealed (or, unsealed, a record moved from bookings' own table by its migration 0002). */
export function openResponse(scope: string, key: string, stored: string): string {
  if (!stored.startsWith(VERSION)) return stored;
  const bytes = Buffer.from(stored.slice(VERSION.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(scope, key), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
