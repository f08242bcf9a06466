import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import { parseKeyRing, type KeyRing } from './token-cipher.js';

/**
 * Fixed development secrets, derived from public strings: fine on a laptop, worthless as protection.
 * The config schema allows them only with NODE_ENV=development or test; otherwise real ones must be set.
 */
const DEVELOPMENT_KEY_RING = `dev:${createHash('sha256').update('calendar-sync development encryption key').digest('base64')}`;
const DEVELOPMENT_STATE_SECRET = createHash('sha256').update('calendar-sync development oauth state secret').digest('hex');

export function keyRingFrom(config: Pick<Config, 'CALENDAR_ENCRYPTION_KEYS'>): KeyRing {
  return parseKeyRing(config.CALENDAR_ENCRYPTION_KEYS ?? DEVELOPMENT_KEY_RING);
}

export function stateSecretFrom(config: Pick<Config, 'OAUTH_STATE_SECRET'>): string {
  return config.OAUTH_STATE_SECRET ?? DEVELOPMENT_STATE_SECRET;
}
