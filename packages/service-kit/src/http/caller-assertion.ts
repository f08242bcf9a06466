import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CALLER_ASSERTION_HEADER, keyRefusal } from '@app/contracts';
import type { AssertedCaller } from '../caller-assertion/claims.js';
import type { CallerAssertionSecrets } from '../caller-assertion/keys.js';
import { callerAssertionVerifier, type Verify } from '../caller-assertion/token.js';
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';

/** What answers without an assertion: probes, metrics and the API document (the gateway fetches it to merge). */
const OPEN_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json']);
const isOpen = (request: FastifyRequest) => {
  const route = request.routeOptions.url;
  return route !== undefined && (OPEN_ROUTES.has(route) || route === '/docs' || route.startsWith('/docs/'));
};

const asserted = new WeakMap<FastifyRequest, AssertedCaller>();
/** Per app: its verifier, attached by startService from the config (apps are built before the config is at hand). */
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
 * onRequest, before anything else reads the request: a request needs an assertion minted under a key of the
 * service's set (HS256, `iss` gateway, `aud` this service, unexpired); its claims are the caller. Missing, expired,
 * tampered, minted for another service or under an unknown kid: 401 UNAUTHORIZED, as a missing API key is at the gateway.
 */
export function registerCallerAssertion(app: FastifyInstance): void {
  const slot: { verify?: Verify } = {};
  verifiers.set(app, slot);
  app.addHook('onRequest', async (request) => {
    if (isOpen(request)) return;
    const token = request.headers[CALLER_ASSERTION_HEADER];
    if (typeof token !== 'string' || token.length === 0) throw unauthorized();
    if (!slot.verify) {
      request.log.error('no caller assertion secrets attached (useCallerAssertionKeys): every request is refused');
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
 * Gives an app built by buildService its HMAC secrets and its name as the audience it accepts. An app that verifies
 * assertions cannot serve without them: a missing CALLER_ASSERTION_SECRETS stops the service at start, naming it.
 */
export function useCallerAssertionKeys(app: object, keys: CallerAssertionSecrets | undefined, audience: string): void {
  const slot = verifiers.get(app);
  if (!slot) return; // the gateway: it mints assertions, it does not verify them
  if (!keys) {
    throw new ConfigError(
      "Invalid configuration:\n  CALLER_ASSERTION_SECRETS: is required to serve requests (this service's HMAC secrets for the gateway's caller assertions)",
    );
  }
  slot.verify = callerAssertionVerifier(keys, audience).verify;
}
