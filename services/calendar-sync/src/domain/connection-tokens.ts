import { openToken, sealToken, type KeyRing } from './token-cipher.js';

export interface CalendarTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
}

/** The token columns of a connection row. */
export interface SealedTokens {
  tokenKeyId: string;
  accessTokenCipher: Uint8Array<ArrayBuffer>;
  refreshTokenCipher: Uint8Array<ArrayBuffer>;
  tokenExpiresAt: Date;
}

/** Each token is bound to its connection and column (AES-GCM additional data). */
const aad = (connectionId: string, column: string) => `calendar_connections/${connectionId}/${column}`;

export function sealTokens(ring: KeyRing, connectionId: string, tokens: CalendarTokens): SealedTokens {
  return {
    tokenKeyId: ring.current.id,
    accessTokenCipher: new Uint8Array(sealToken(ring, tokens.accessToken, aad(connectionId, 'access_token'))),
    refreshTokenCipher: new Uint8Array(sealToken(ring, tokens.refreshToken, aad(connectionId, 'refresh_token'))),
    tokenExpiresAt: tokens.expiresAt,
  };
}

export function openTokens(ring: KeyRing, connectionId: string, sealed: SealedTokens): CalendarTokens {
  return {
    accessToken: openToken(ring, sealed.tokenKeyId, sealed.accessTokenCipher, aad(connectionId, 'access_token')),
    refreshToken: openToken(ring, sealed.tokenKeyId, sealed.refreshTokenCipher, aad(connectionId, 'refresh_token')),
    expiresAt: sealed.tokenExpiresAt,
  };
}
