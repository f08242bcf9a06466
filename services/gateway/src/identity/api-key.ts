import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'sk_';
const KEY_SHAPE = /^sk_[A-Za-z0-9_-]{20,200}$/;

/** A new API key: `sk_` + 32 random bytes, base64url. Only its hash is ever stored. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The first characters of a key, kept to recognise it in listings without revealing it. */
export function displayPrefix(key: string): string {
  return key.slice(0, 10);
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/** The token of an `Authorization: Bearer <token>` header, or null when the header is missing or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
