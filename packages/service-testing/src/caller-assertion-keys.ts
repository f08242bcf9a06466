import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** An Ed25519 pair as the configuration carries it: the gateway's PKCS#8 PEM and kid, the services' JWKS. */
export interface CallerAssertionKeys {
  privateKey: string;
  keyId: string;
  publicKeys: string;
}

/** A fresh pair (the test run makes one in its global setup, as `npm start` does per start). */
export function generateCallerAssertionKeys(keyId = `test-${randomBytes(4).toString('hex')}`): CallerAssertionKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: keyId, alg: 'EdDSA', use: 'sig' };
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    keyId,
    publicKeys: JSON.stringify({ keys: [jwk] }),
  };
}
