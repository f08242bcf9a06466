import { randomBytes } from 'node:crypto';

const SECRET_BYTES = 32;
/** A rotated-out secret keeps signing (a second signature) this long, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (API.md allows 24–64). */
export function newSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The secrets that sign an attempt at `now`: the current one, and the one before while its overlap lasts. */
export function signingSecrets(
  endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null },
  now: Date,
): string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = endpoint;
  return previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > now ? [secret, previousSecret] : [secret];
}
