// A fresh Ed25519 pair for the gateway's caller assertions, as the processes' environment carries it: the gateway
// signs with CALLER_ASSERTION_PRIVATE_KEY (PKCS#8 PEM) under CALLER_ASSERTION_KEY_ID, the services verify with
// CALLER_ASSERTION_PUBLIC_KEYS (a JWKS). The stack makes one per start; compose keeps one in ./secrets
// (scripts/compose-secrets.mjs).
import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** The gateway's variables and every service's. */
export interface CallerAssertionEnv {
  gateway: { CALLER_ASSERTION_PRIVATE_KEY: string; CALLER_ASSERTION_KEY_ID: string };
  services: { CALLER_ASSERTION_PUBLIC_KEYS: string };
}

export function callerAssertionKeys(keyId = `dev-${randomBytes(4).toString('hex')}`): CallerAssertionEnv {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: keyId, alg: 'EdDSA', use: 'sig' };
  return {
    gateway: {
      CALLER_ASSERTION_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      CALLER_ASSERTION_KEY_ID: keyId,
    },
    services: { CALLER_ASSERTION_PUBLIC_KEYS: JSON.stringify({ keys: [jwk] }) },
  };
}
