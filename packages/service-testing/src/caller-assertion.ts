import { createPrivateKey, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { inject } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import {
  CALLER_ASSERTION_ALGORITHM,
  CALLER_ASSERTION_AUDIENCE,
  CALLER_ASSERTION_ISSUER,
  callerAssertionClaims,
  type AssertedCaller,
} from '@app/service-kit';
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
  /** Sign with a key pair of this process instead of the run's (a forged assertion with the run's kid). */
  foreignKey?: boolean;
  /** Change the claims after signing (the organization becomes another), keeping the signature: tampered. */
  tamperedOrganizationId?: string;
  issuer?: string;
  audience?: string;
}

let runKey: KeyObject | undefined;
let foreign: KeyObject | undefined;

/**
 * A caller assertion as the gateway signs it, with the run's key (see global-setup.ts), for calling a service
 * directly. Signed with node:crypto's synchronous Ed25519 `sign(null, …)` into a standard compact JWS (what jose
 * produces and verifies), because jose only signs asynchronously and `organizationHeaders()` is called, synchronously,
 * at hundreds of test call sites that build headers inline.
 */
export function callerAssertion(caller: Partial<AssertedCaller> = {}, options: AssertionOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: CALLER_ASSERTION_ALGORITHM, kid: options.keyId ?? inject('callerAssertionKeyId'), typ: 'JWT' };
  const claims = {
    ...callerAssertionClaims({ ...caller, requestId: caller.requestId ?? randomUUID() }),
    iss: options.issuer ?? CALLER_ASSERTION_ISSUER,
    aud: options.audience ?? CALLER_ASSERTION_AUDIENCE,
    iat: now,
    exp: now + (options.expiresInSeconds ?? TEST_TTL_SECONDS),
  };
  const signingInput = `${base64url(header)}.${base64url(claims)}`;
  const signature = sign(null, Buffer.from(signingInput), options.foreignKey ? foreignKey() : runPrivateKey()).toString('base64url');
  if (options.tamperedOrganizationId === undefined) return `${signingInput}.${signature}`;
  const tampered = { ...claims, organization_id: options.tamperedOrganizationId };
  return `${base64url(header)}.${base64url(tampered)}.${signature}`;
}

/** The headers of an anonymous call of a public route through the gateway: an assertion naming no organization. */
export function anonymousHeaders(): Record<string, string> {
  return { [CALLER_ASSERTION_HEADER]: callerAssertion() };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function runPrivateKey(): KeyObject {
  runKey ??= createPrivateKey(inject('callerAssertionPrivateKey'));
  return runKey;
}

function foreignKey(): KeyObject {
  foreign ??= generateKeyPairSync('ed25519').privateKey;
  return foreign;
}
