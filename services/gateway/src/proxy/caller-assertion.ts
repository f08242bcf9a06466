import type { FastifyRequest } from 'fastify';
import { createSigner } from 'fast-jwt';
import {
  CALLER_ASSERTION_ALGORITHM,
  CALLER_ASSERTION_AUDIENCE,
  CALLER_ASSERTION_ISSUER,
  CALLER_ASSERTION_TTL_SECONDS,
  callerAssertionClaims,
  ConfigError,
} from '@app/service-kit';
import type { Config } from '../config.js';

/** Signs the caller assertion of a proxied request (see `CALLER_ASSERTION_HEADER`); one signer per gateway. */
export type AssertionSigner = (request: Pick<FastifyRequest, 'id' | 'apiKey'>) => string;

/**
 * The assertion says what the gateway verified: the key's organization and its time zone, the key's id and kind and,
 * for a restricted key, its scopes (none of them for an anonymous call of a public route), and the request id. EdDSA over Ed25519, `kid` in the header
 * so that the services can hold the old and the new public key during a rotation. fast-jwt signs synchronously
 * with node:crypto: about half the CPU of a WebCrypto signature (a thread-pool job and its copies) on every request.
 */
export function assertionSigner(config: Pick<Config, 'CALLER_ASSERTION_PRIVATE_KEY' | 'CALLER_ASSERTION_KEY_ID'>): AssertionSigner {
  const key = config.CALLER_ASSERTION_PRIVATE_KEY;
  const kid = config.CALLER_ASSERTION_KEY_ID;
  if (!key || !kid) {
    throw new ConfigError(
      'Invalid configuration:\n  CALLER_ASSERTION_PRIVATE_KEY, CALLER_ASSERTION_KEY_ID: are required to proxy requests (the services refuse unsigned ones)',
    );
  }
  const sign = createSigner({
    key: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
    algorithm: CALLER_ASSERTION_ALGORITHM,
    kid,
    iss: CALLER_ASSERTION_ISSUER,
    aud: CALLER_ASSERTION_AUDIENCE,
    expiresIn: CALLER_ASSERTION_TTL_SECONDS * 1000,
  });
  return (request) => {
    const identity = request.apiKey;
    return sign(
      callerAssertionClaims({
        requestId: request.id,
        ...(identity
          ? {
              organizationId: identity.organizationId,
              timezone: identity.timezone,
              apiKeyId: identity.apiKeyId,
              keyType: identity.type,
              // Only a restricted key has scopes: the services refuse an assertion with scopes on another kind.
              ...(identity.type === 'restricted' ? { scopes: identity.scopes ?? [] } : {}),
            }
          : {}),
      }),
    );
  };
}
