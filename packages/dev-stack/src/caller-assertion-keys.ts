// Fresh HMAC secrets for the gateway's caller assertions, one per service, as the processes' environment carries them:
// each service verifies with its own CALLER_ASSERTION_SECRETS ({kid: secret}), the gateway mints with all of them
// (CALLER_ASSERTION_SIGNING_KEYS, {service: {kid, secret}}). The stack makes them per start; compose keeps them in
// ./secrets (scripts/compose-secrets.mjs).
import { randomBytes } from 'node:crypto';

/** The services behind the gateway: each is the audience of its own assertions, under its own secret. */
export const ASSERTED_SERVICES = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'] as const;

/** The gateway's variable and each service's. */
export interface CallerAssertionEnv {
  gateway: { CALLER_ASSERTION_SIGNING_KEYS: string };
  services: Record<string, { CALLER_ASSERTION_SECRETS: string }>;
}

export function callerAssertionKeys(keyId = `dev-${randomBytes(4).toString('hex')}`): CallerAssertionEnv {
  const keys = Object.fromEntries(
    ASSERTED_SERVICES.map((service) => [service, { kid: keyId, secret: randomBytes(32).toString('base64url') }]),
  );
  return {
    gateway: { CALLER_ASSERTION_SIGNING_KEYS: JSON.stringify(keys) },
    services: Object.fromEntries(
      Object.entries(keys).map(([service, { kid, secret }]) => [service, { CALLER_ASSERTION_SECRETS: JSON.stringify({ [kid]: secret }) }]),
    ),
  };
}
