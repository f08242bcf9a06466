import { createHash, randomBytes } from 'node:crypto';

/** 32 bytes of the CSPRNG: 256 bits, far past guessing; 43 characters of base64url in the URL. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new feed token, for the URL only: the database keeps its hash (`hashFeedToken`). */
export function newFeedToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What the database keeps of a token, and looks a URL's token up by. */
export function hashFeedToken(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(token).digest());
}

/** The token of a feed URL's last segment (`<token>.ics`), or null when it cannot be one (a 404 without a lookup). */
export function tokenOfFeedFile(file: string): string | null {
  if (!file.endsWith('.ics')) return null;
  const token = file.slice(0, -'.ics'.length);
  return TOKEN_SHAPE.test(token) ? token : null;
}

/** The feed's public address: under the gateway's `/ics` prefix, which needs no key. */
export function feedUrl(publicBaseUrl: string, token: string): string {
  return new URL(`ics/${token}.ics`, publicBaseUrl.endsWith('/') ? publicBaseUrl : `${publicBaseUrl}/`).toString();
}
