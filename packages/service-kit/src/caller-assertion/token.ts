import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { LRUCache } from 'lru-cache';
import {
  assertedCallerOf,
  CALLER_ASSERTION_ALGORITHM,
  CALLER_ASSERTION_ISSUER,
  CALLER_ASSERTION_TTL_SECONDS,
  type AssertedCaller,
} from './claims.js';
import type { CallerAssertionKey } from './keys.js';

/** Gateway and service clocks may differ a little; an assertion lives 60 s, so a few seconds of skew are harmless. */
const CLOCK_TOLERANCE_MS = 5000;
/**
 * Verified assertions a service keeps: one per (key, gateway replica) in use within a minute. A valid one takes the
 * gateway's secret to mint, so a client cannot fill the cache; refusals are never cached.
 */
const VERIFIED_MAX = 10_000;
/** A header longer than this is no assertion of ours (claims plus 64 scopes stay far below it): refused unread. */
const MAX_TOKEN_LENGTH = 8192;

/** The claims of one assertion, without `iss`, `aud`, `iat` and `exp` (the signer adds them). */
export type Mint = (claims: Record<string, string | string[]>) => string;

/** A signer of assertions for one service (`aud`) under one key: HS256, `kid` in the header, 60 s. */
export function callerAssertionSigner(key: CallerAssertionKey, audience: string, ttlSeconds = CALLER_ASSERTION_TTL_SECONDS): Mint {
  return createSigner({
    key: key.secret,
    algorithm: CALLER_ASSERTION_ALGORITHM,
    kid: key.kid,
    iss: CALLER_ASSERTION_ISSUER,
    aud: audience,
    expiresIn: ttlSeconds * 1000,
  });
}

/** The caller of a valid assertion, or why it is refused (a fast-jwt error code, logged: a wrong key after a rotation shows). */
export type Verify = (token: string) => AssertedCaller | { refused: string };

export interface VerifierOptions {
  /** Bound of the cache of verified assertions (tests make it small). */
  max?: number;
  clockToleranceMs?: number;
}

export interface CallerAssertionVerifier {
  verify: Verify;
  /** How many verified assertions are cached (bounded by `max`). */
  readonly cached: number;
}

/**
 * The verifier of one service: HS256 under a key of its set, picked by the token's `kid` (a kid outside the set is
 * refused like a bad signature), `iss` gateway, `aud` this service, unexpired. fast-jwt checks all of it; the claims
 * then take the caller's shape. A verified token is cached until it expires (plus the tolerance the check allows),
 * keyed by its exact text: the gateway sends one token with many requests, so most requests cost one map lookup.
 * Exported for bench/caller-assertion-cost.mjs, which measures this very function.
 */
export function callerAssertionVerifier(
  keys: readonly CallerAssertionKey[],
  audience: string,
  options: VerifierOptions = {},
): CallerAssertionVerifier {
  const tolerance = options.clockToleranceMs ?? CLOCK_TOLERANCE_MS;
  const byKid = new Map(
    keys.map(({ kid, secret }) => [
      kid,
      createVerifier({
        key: secret,
        algorithms: [CALLER_ASSERTION_ALGORITHM],
        allowedIss: CALLER_ASSERTION_ISSUER,
        allowedAud: audience,
        requiredClaims: ['iat', 'exp'],
        clockTolerance: tolerance,
      }),
    ]),
  );
  const verified = new LRUCache<string, AssertedCaller>({ max: options.max ?? VERIFIED_MAX });
  const verify: Verify = (token) => {
    const hit = verified.get(token);
    if (hit !== undefined) return hit;
    if (token.length > MAX_TOKEN_LENGTH) return { refused: 'TOO_LONG' };
    try {
      const check = byKid.get(kidOf(token));
      if (!check) return { refused: 'UNKNOWN_KID' };
      const payload = check(token) as { exp: number };
      const caller = assertedCallerOf(payload);
      if (!caller) return { refused: 'CLAIMS_SHAPE' };
      const ttl = payload.exp * 1000 + tolerance - Date.now();
      if (ttl > 0) verified.set(token, caller, { ttl });
      return caller;
    } catch (error) {
      // Bad signature, expired, wrong issuer or audience, not a JWS: all the same 401 to the caller.
      return { refused: error instanceof TokenError ? error.code : 'UNREADABLE' };
    }
  };
  return {
    verify,
    get cached() {
      return verified.size;
    },
  };
}

/** The `kid` of a compact JWS's header ('' when it has none or is unreadable: no key has that id). */
function kidOf(token: string): string {
  const dot = token.indexOf('.');
  if (dot <= 0) return '';
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString()) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : '';
  } catch {
    return '';
  }
}
