import type { KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
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
export type AssertionSigner = (request: FastifyRequest) => Promise<string>;

/**
 * The assertion says what the gateway verified: the key's organization and its time zone and the key's id (none of
 * the three for an anonymous call of a public route), and the request id. EdDSA over Ed25519, `kid` in the header
 * so that the services can hold the old and the new public key during a rotation.
 */
export function assertionSigner(config: Pick<Config, 'CALLER_ASSERTION_PRIVATE_KEY' | 'CALLER_ASSERTION_KEY_ID'>): AssertionSigner {
  const key: KeyObject | undefined = config.CALLER_ASSERTION_PRIVATE_KEY;
  const kid = config.CALLER_ASSERTION_KEY_ID;
  if (!key || !kid) {
    throw new ConfigError(
      'Invalid configuration:\n  CALLER_ASSERTION_PRIVATE_KEY, CALLER_ASSERTION_KEY_ID: are required to proxy requests (the services refuse unsigned ones)',
    );
  }
  return (request) => {
    const identity = request.apiKey;
    const claims = callerAssertionClaims({
      requestId: request.id,
      ...(identity ? { organizationId: identity.organizationId, timezone: identity.timezone, apiKeyId: identity.apiKeyId } : {}),
    });
    return new SignJWT(claims)
      .setProtectedHeader({ alg: CALLER_ASSERTION_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(CALLER_ASSERTION_ISSUER)
      .setAudience(CALLER_ASSERTION_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${CALLER_ASSERTION_TTL_SECONDS}s`)
      .sign(key);
  };
}
