import { createHmac, randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import { CALLER_ASSERTION_ALGORITHM, CALLER_ASSERTION_ISSUER, callerAssertionClaims, type AssertedCaller } from '@app/service-kit';
import { testAssertionSecret } from './caller-assertion-keys.js';
import './provided-context.js';

/**
 * Tests hold headers for a whole file (a support class builds them once), so their assertions live an hour
 * instead of the gateway's 60 s; the services check the signature and expiry all the same.
 */
const TEST_TTL_SECONDS = 3600;

export interface AssertionOptions {
  /** Seconds until it expires, from now: negative for an assertion that has already expired. */
  expiresInSeconds?: number;
  /** The JWS header's kid (default: the run's); another one is a key the services do not know. */
  keyId?: string;
  /** Mint with a secret of this process instead of the run's (a forged assertion with the run's kid). */
  foreignKey?: boolean;
  /** Mint with this base64url secret (another service's, a rotated one) instead of the audience's. */
  secret?: string;
  /** Change the claims after minting (the organization becomes another), keeping the MAC: tampered. */
  tamperedOrganizationId?: string;
  issuer?: string;
  /** The service it is for (default: the test project's, see global-setup.ts); its secret is the run's for that name. */
  audience?: string;
}

/**
 * A caller assertion as the gateway mints it, with the audience's secret of the run, for calling a service directly.
 * An HS256 compact JWS built with node:crypto (what fast-jwt produces and verifies), synchronous because
 * `organizationHeaders()` is called at hundreds of test call sites that build headers inline.
 */
export function callerAssertion(caller: AssertedCaller = {}, options: AssertionOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const audience = options.audience ?? inject('callerAssertionAudience');
  const header = { alg: CALLER_ASSERTION_ALGORITHM, typ: 'JWT', kid: options.keyId ?? inject('callerAssertionKeyId') };
  const claims = {
    ...callerAssertionClaims(caller),
    iss: options.issuer ?? CALLER_ASSERTION_ISSUER,
    aud: audience,
    iat: now,
    exp: now + (options.expiresInSeconds ?? TEST_TTL_SECONDS),
  };
  const secret = options.foreignKey ? randomBytes(32).toString('base64url') : (options.secret ?? testAssertionSecret(audience));
  const signingInput = `${base64url(header)}.${base64url(claims)}`;
  const mac = createHmac('sha256', Buffer.from(secret, 'base64url')).update(signingInput).digest('base64url');
  if (options.tamperedOrganizationId === undefined) return `${signingInput}.${mac}`;
  const tampered = { ...claims, organization_id: options.tamperedOrganizationId };
  return `${base64url(header)}.${base64url(tampered)}.${mac}`;
}

/** The headers of an anonymous call of a public route through the gateway: an assertion naming no organization. */
export function anonymousHeaders(): Record<string, string> {
  return { [CALLER_ASSERTION_HEADER]: callerAssertion() };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
