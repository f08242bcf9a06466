import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIXES, API_KEY_TYPES, type ApiKeyType } from '@app/contracts';

/** `sk_`, `rk_` or `pk_`, then base64url: what any key of the three kinds looks like (older keys are shorter). */
const KEY_SHAPE = new RegExp(`^(${API_KEY_TYPES.map((type) => API_KEY_PREFIXES[type]).join('|')})[A-Za-z0-9_-]{20,200}$`);

/** How much of a key `prefix` keeps (API.md: its first 12 characters), enough to tell keys apart in a list. */
const DISPLAY_PREFIX_LENGTH = 12;

/** A new API key of `type`: its prefix + 32 random bytes, base64url. Only its hash is ever stored. */
export function generateApiKey(type: ApiKeyType = 'secret'): string {
  return `${API_KEY_PREFIXES[type]}${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The first characters of a key, kept to recognise it in listings without revealing it. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
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
