import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createPublicKey } from 'node:crypto';
import { createDecoder, createVerifier, TokenError } from 'fast-jwt';
import { CALLER_ASSERTION_HEADER, keyRefusal } from '@app/contracts';
import {
  assertedCallerOf,
  CALLER_ASSERTION_ALGORITHM,
  CALLER_ASSERTION_AUDIENCE,
  CALLER_ASSERTION_ISSUER,
  type AssertedCaller,
} from '../caller-assertion/claims.js';
import type { CallerAssertionPublicKeys } from '../caller-assertion/keys.js';
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';

/** What answers without an assertion: probes, metrics and the API document (the gateway fetches it to merge). */
const OPEN_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);
const isOpen = (request: FastifyRequest) => {
  const route = request.routeOptions.url;
  return route !== undefined && (OPEN_ROUTES.has(route) || route === '/docs' || route.startsWith('/docs/'));
};
/** Gateway and service clocks may differ a little; an assertion lives 60 s, so a few seconds of skew are harmless. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** The caller of a valid assertion, or why it is refused (a fast-jwt error code, logged: a wrong key after a rotation shows). */
type Verify = (token: string) => AssertedCaller | { refused: string };

const asserted = new WeakMap<FastifyRequest, AssertedCaller>();
/** Per app: the public keys, attached by startService from the config (apps are built before the config is at hand). */
const verifiers = new WeakMap<object, { verify?: Verify }>();

const unauthorized = () => new AppError('UNAUTHORIZED', 'Missing or invalid API key');

/** The caller the verified assertion of this request names (or the gateway's own authenticated caller); undefined before. */
export function assertedCallerOfRequest(request: FastifyRequest): AssertedCaller | undefined {
  return asserted.get(request);
}

/**
 * The gateway's own routes: it is the issuer, so the caller of a key it verified itself is trusted as it is (what
 * `callerOf` then reads, as on a service after verification).
 */
export function trustCaller(request: FastifyRequest, caller: AssertedCaller): void {
  asserted.set(request, caller);
}

/**
 * onRequest, before anything else reads the request: a request needs an assertion signed by a key of the set
 * (EdDSA, `iss` gateway, `aud` services, unexpired); its claims are the caller. Missing, expired, tampered or
 * signed with an unknown kid: 401 UNAUTHORIZED, as a missing API key is at the gateway.
 */
export function registerCallerAssertion(app: FastifyInstance): void {
  const slot: { verify?: Verify } = {};
  verifiers.set(app, slot);
  app.addHook('onRequest', async (request) => {
    if (isOpen(request)) return;
    const token = request.headers[CALLER_ASSERTION_HEADER];
    if (typeof token !== 'string' || token.length === 0) throw unauthorized();
    if (!slot.verify) {
      request.log.error('no caller assertion keys attached (useCallerAssertionKeys): every request is refused');
      throw unauthorized();
    }
    const caller = slot.verify(token);
    if ('refused' in caller) {
      request.log.info({ reason: caller.refused }, 'caller assertion refused');
      throw unauthorized();
    }
    asserted.set(request, caller);
    refuseKeyKind(request, caller);
  });
}

/**
 * A restricted or publishable key calling what it may not: 403 FORBIDDEN, by the same table of operations the
 * gateway checks (API_KEY_OPERATIONS), so a request that reached the service some other way is refused here too.
 */
function refuseKeyKind(request: FastifyRequest, caller: AssertedCaller): void {
  if (caller.keyType === undefined || caller.keyType === 'secret') return;
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  const refusal = keyRefusal(caller, operationId);
  if (refusal !== null) throw new AppError('FORBIDDEN', refusal);
}

/**
 * Gives an app built by buildService the gateway's public keys. An app that verifies assertions cannot serve
 * without them: a missing CALLER_ASSERTION_PUBLIC_KEYS stops the service at start, naming the variable.
 */
export function useCallerAssertionKeys(app: object, keys: CallerAssertionPublicKeys | undefined): void {
  const slot = verifiers.get(app);
  if (!slot) return; // the gateway: it signs assertions, it does not verify them
  if (!keys) {
    throw new ConfigError(
      'Invalid configuration:\n  CALLER_ASSERTION_PUBLIC_KEYS: is required to serve requests (the JWKS of the gateway public keys for caller assertions)',
    );
  }
  slot.verify = callerAssertionVerifier(keys);
}

/**
 * One synchronous fast-jwt verifier per kid of the set (node:crypto, about half the CPU of WebCrypto's thread-pool
 * job on every request); the token's own `kid` picks it, and a kid outside the set is refused like a bad signature.
 * Exported for bench/caller-assertion-cost.mjs, which measures this very function.
 */
export function callerAssertionVerifier(keys: CallerAssertionPublicKeys): Verify {
  const byKid = new Map(
    keys.keys.map(({ kid, ...jwk }) => {
      const pem = createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'pem', type: 'spki' }).toString();
      const verify = createVerifier({
        key: pem,
        algorithms: [CALLER_ASSERTION_ALGORITHM],
        allowedIss: CALLER_ASSERTION_ISSUER,
        allowedAud: CALLER_ASSERTION_AUDIENCE,
        requiredClaims: ['iat', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS * 1000,
      });
      return [kid, verify] as const;
    }),
  );
  const decode = createDecoder({ complete: true });
  return (token) => {
    try {
      const { header } = decode(token) as { header: { kid?: unknown } };
      const verify = typeof header.kid === 'string' ? byKid.get(header.kid) : undefined;
      if (!verify) return { refused: 'UNKNOWN_KID' };
      return assertedCallerOf(verify(token)) ?? { refused: 'CLAIMS_SHAPE' };
    } catch (error) {
      // Bad signature, expired, wrong issuer or audience, not a JWS: all the same 401 to the caller.
      return { refused: error instanceof TokenError ? error.code : 'UNREADABLE' };
    }
  };
}
