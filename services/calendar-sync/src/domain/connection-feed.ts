import { openToken, sealToken, type KeyRing } from './token-cipher.js';

/** An ICS connection's feed: its URL (a secret: feed URLs carry their access token) and what its last full read left. */
export interface CalendarFeed {
  url: string;
  validators: FeedValidators;
}

/** The last full read's `ETag` / `Last-Modified`, and how far the windows it stored reach (a 304 keeps them). */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
  coveredUntil: Date | null;
}

/** The feed columns of a connection row. */
export interface SealedFeed {
  tokenKeyId: string;
  icsUrlCipher: Uint8Array<ArrayBuffer>;
}

/** Bound to its connection and column (AES-GCM additional data), as the tokens are. */
const aad = (connectionId: string) => `calendar_connections/${connectionId}/ics_url`;

export function sealFeedUrl(ring: KeyRing, connectionId: string, url: string): SealedFeed {
  return { tokenKeyId: ring.current.id, icsUrlCipher: new Uint8Array(sealToken(ring, url, aad(connectionId))) };
}

export function openFeedUrl(ring: KeyRing, connectionId: string, sealed: SealedFeed): string {
  return openToken(ring, sealed.tokenKeyId, sealed.icsUrlCipher, aad(connectionId));
}

/** The validators as the connection row stores them. */
export function validatorColumns(validators: FeedValidators) {
  return { icsEtag: validators.etag, icsLastModified: validators.lastModified, icsCoveredUntil: validators.coveredUntil };
}
