import { randomBytes } from 'node:crypto';
import { callerAssertionKeys } from '@app/dev-stack';

/** An Ed25519 pair as the configuration carries it: the gateway's PKCS#8 PEM and kid, the services' JWKS. */
export interface CallerAssertionKeys {
  privateKey: string;
  keyId: string;
  publicKeys: string;
}

/** A fresh pair (the test run makes one in its global setup, as `npm start` does per start), the dev stack's. */
export function generateCallerAssertionKeys(keyId = `test-${randomBytes(4).toString('hex')}`): CallerAssertionKeys {
  const { gateway, services } = callerAssertionKeys(keyId);
  return { privateKey: gateway.CALLER_ASSERTION_PRIVATE_KEY, keyId, publicKeys: services.CALLER_ASSERTION_PUBLIC_KEYS };
}
