import { ConfigError, loadConfig } from '@app/service-kit';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.js';
import { openTokens, sealTokens } from '../../src/domain/connection-tokens.js';
import { signState, verifyState } from '../../src/domain/oauth-state.js';
import { parseKeyRing, TokenDecryptError } from '../../src/domain/token-cipher.js';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const tokens = { accessToken: 'ya29.access', refreshToken: '1//refresh', expiresAt: new Date('2026-03-10T12:00:00Z') };

describe('token encryption', () => {
  it('when sealed, then the plaintext is not in the ciphertext and opens again with the same connection', () => {
    const ring = parseKeyRing(`new:${key(1)}`);
    const sealed = sealTokens(ring, 'conn-1', tokens);
    expect(Buffer.from(sealed.accessTokenCipher).toString('latin1')).not.toContain('ya29');
    expect(sealed.tokenKeyId).toBe('new');
    expect(openTokens(ring, 'conn-1', sealed)).toEqual(tokens);
    // The same value sealed twice differs (random IV).
    expect(Buffer.from(sealTokens(ring, 'conn-1', tokens).accessTokenCipher)).not.toEqual(Buffer.from(sealed.accessTokenCipher));
  });

  it('when keys rotate, then old ciphertexts still open with the old key listed after the new one', () => {
    const sealed = sealTokens(parseKeyRing(`old:${key(1)}`), 'conn-1', tokens);
    expect(openTokens(parseKeyRing(`new:${key(2)},old:${key(1)}`), 'conn-1', sealed)).toEqual(tokens);
    expect(() => openTokens(parseKeyRing(`new:${key(2)}`), 'conn-1', sealed)).toThrow(TokenDecryptError);
  });

  it('when a ciphertext is moved to another connection or tampered with, then it does not open', () => {
    const ring = parseKeyRing(`k:${key(1)}`);
    const sealed = sealTokens(ring, 'conn-1', tokens);
    expect(() => openTokens(ring, 'conn-2', sealed)).toThrow(TokenDecryptError);
    const tampered = Uint8Array.from(sealed.accessTokenCipher);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => openTokens(ring, 'conn-1', { ...sealed, accessTokenCipher: tampered })).toThrow(TokenDecryptError);
  });
});

describe('OAuth state', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const input = {
    organizationId: 'org',
    scheduleId: 'sched',
    provider: 'google' as const,
    calendarIds: ['primary'],
    writeCalendarId: 'primary',
  };

  it('when signed, then it verifies for its provider until it expires', () => {
    const { token, state } = signState('secret', input, now);
    expect(verifyState('secret', token, 'google', now)).toEqual(state);
    expect(verifyState('secret', token, 'outlook', now)).toBeNull();
    expect(verifyState('other-secret', token, 'google', now)).toBeNull();
    expect(verifyState('secret', token, 'google', new Date(now.getTime() + 10 * 60_000))).toBeNull();
    expect(verifyState('secret', `${token}x`, 'google', now)).toBeNull();
    expect(verifyState('secret', 'a.b.c', 'google', now)).toBeNull();
  });
});

describe('config', () => {
  const base = { NODE_ENV: 'production', PORT: '0', METRICS_PORT: '0' };

  it('when production lacks the encryption keys and state secret, then it refuses to start naming both', () => {
    expect(() => loadConfig(configSchema, base)).toThrow(ConfigError);
    expect(() => loadConfig(configSchema, base)).toThrow(/CALENDAR_ENCRYPTION_KEYS[\s\S]*OAUTH_STATE_SECRET/);
  });

  it('when NODE_ENV is unset and the secrets are missing, then it refuses to start naming both (unset is not development)', () => {
    expect(() => loadConfig(configSchema, { PORT: '0' })).toThrow(/CALENDAR_ENCRYPTION_KEYS[\s\S]*OAUTH_STATE_SECRET/);
  });

  it('when the key ring is malformed, then it refuses to start', () => {
    expect(() => loadConfig(configSchema, { PORT: '0', NODE_ENV: 'development', CALENDAR_ENCRYPTION_KEYS: 'k:short' })).toThrow(
      /CALENDAR_ENCRYPTION_KEYS/,
    );
  });

  it('when production has both, or in development, then it starts with the real endpoints by default', () => {
    const config = loadConfig(configSchema, { ...base, CALENDAR_ENCRYPTION_KEYS: `k:${key(3)}`, OAUTH_STATE_SECRET: 'x'.repeat(32) });
    expect(config).toMatchObject({
      GOOGLE_API_URL: 'https://www.googleapis.com',
      GRAPH_API_URL: 'https://graph.microsoft.com/v1.0',
      CALENDAR_SYNC_INTERVAL_MS: 300_000,
      MICROSOFT_TENANT: 'common',
    });
    expect(loadConfig(configSchema, { PORT: '0', NODE_ENV: 'development' }).CALENDAR_ENCRYPTION_KEYS).toBeUndefined();
  });
});
