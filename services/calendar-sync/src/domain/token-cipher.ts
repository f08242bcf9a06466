import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The encryption keys: `current` encrypts, every key in `keys` decrypts. */
export interface KeyRing {
  current: { id: string; key: Buffer };
  keys: ReadonlyMap<string, Buffer>;
}

export class TokenDecryptError extends Error {}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Parses `keyId:base64[,keyId:base64…]` (validated by the config schema); the first entry is the current key. */
export function parseKeyRing(text: string): KeyRing {
  const keys = new Map<string, Buffer>();
  let current: KeyRing['current'] | undefined;
  for (const entry of text.split(',')) {
    const [id = '', encoded = ''] = entry.trim().split(':');
    const key = Buffer.from(encoded, 'base64');
    if (!id || key.length !== 32) throw new Error('each encryption key must be keyId:base64 of 32 bytes');
    if (keys.has(id)) throw new Error(`encryption key id "${id}" appears twice`);
    keys.set(id, key);
    current ??= { id, key };
  }
  if (!current) throw new Error('no encryption key given');
  return { current, keys };
}

/**
 * AES-256-GCM with a random IV per value; `aad` binds the ciphertext to its row and column, so a value
 * copied into another connection (or from the refresh into the access column) fails to decrypt.
 * Layout: iv (12) | tag (16) | ciphertext.
 */
export function sealToken(ring: KeyRing, plaintext: string, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function openToken(ring: KeyRing, keyId: string, sealed: Uint8Array, aad: string): string {
  const key = ring.keys.get(keyId);
  if (!key) throw new TokenDecryptError(`encryption key "${keyId}" is not configured (CALENDAR_ENCRYPTION_KEYS)`);
  const data = Buffer.from(sealed);
  if (data.length < IV_BYTES + TAG_BYTES) throw new TokenDecryptError('stored token is truncated');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new TokenDecryptError('stored token failed authentication (wrong key or tampered data)');
  }
}
