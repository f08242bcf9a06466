import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { CALLER_ASSERTION_TTL_SECONDS, callerAssertionClaims, callerAssertionSigner, ConfigError, type Mint } from '@app/service-kit';
import type { Config } from '../config.js';
import { SERVICE_NAMES, type ServiceName } from './route-table.js';

/**
 * An assertion is sent until this long before it expires: a request that takes it then still reaches the service
 * (and its slowest proxied round trip, UPSTREAM_TIMEOUT_MS, only needs it checked on arrival) well inside its life.
 */
const REUSE_MARGIN_SECONDS = 20;
/** (key, service) pairs in use within 40 s: the auth cache's 10 000 known keys times a few services each, bounded. */
const MINTED_MAX = 20_000;

/** The assertion to send with a request to `service` (see `CALLER_ASSERTION_HEADER`); one minter per gateway. */
export interface AssertionMinter {
  mint(request: Pick<FastifyRequest, 'apiKey'>, service: ServiceName): string;
  /** How many assertions are held for reuse (bounded by `max`). */
  readonly cached: number;
}

/**
 * The assertion says what the gateway verified: the key's organization and its time zone, the key's id and kind and,
 * for a restricted key, its scopes (none of them for an anonymous call of a public route), with the target service
 * as audience. HS256 under that service's own secret, `kid` in the header so that the service can hold the old and
 * the new secret during a rotation. Nothing in it is per request, so one is minted per key and service and sent with
 * their requests for 40 s of its 60: the boundary costs a map lookup per request instead of a signature.
 */
export function assertionMinter(config: Pick<Config, 'CALLER_ASSERTION_SIGNING_KEYS'>, options: { max?: number } = {}): AssertionMinter {
  const signers = signersOf(config);
  const minted = new LRUCache<string, string>({
    max: options.max ?? MINTED_MAX,
    ttl: (CALLER_ASSERTION_TTL_SECONDS - REUSE_MARGIN_SECONDS) * 1000,
  });
  return {
    mint(request, service) {
      const identity = request.apiKey;
      // Everything the claims say, so a key whose kind or scopes changed (a new identity from the auth cache) gets a new one.
      const cacheKey = identity
        ? `${service}\n${identity.apiKeyId}\n${identity.type}\n${identity.organizationId}\n${identity.timezone}\n${identity.scopes?.join(',') ?? ''}`
        : service;
      let token = minted.get(cacheKey);
      if (token === undefined) {
        token = signers[service](
          callerAssertionClaims(
            identity
              ? {
                  organizationId: identity.organizationId,
                  timezone: identity.timezone,
                  apiKeyId: identity.apiKeyId,
                  keyType: identity.type,
                  // Only a restricted key has scopes: the services refuse an assertion with scopes on another kind.
                  ...(identity.type === 'restricted' ? { scopes: identity.scopes ?? [] } : {}),
                }
              : {},
          ),
        );
        minted.set(cacheKey, token);
      }
      return token;
    },
    get cached() {
      return minted.size;
    },
  };
}

/** One signer per service, each under that service's own key; a missing service or a secret used twice is refused. */
function signersOf(config: Pick<Config, 'CALLER_ASSERTION_SIGNING_KEYS'>): Record<ServiceName, Mint> {
  const keys = config.CALLER_ASSERTION_SIGNING_KEYS ?? {};
  const missing = SERVICE_NAMES.filter((service) => keys[service] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  CALLER_ASSERTION_SIGNING_KEYS: needs a key for ${missing.join(', ')} to proxy requests (the services refuse requests without an assertion)`,
    );
  }
  const secrets = new Set(SERVICE_NAMES.map((service) => keys[service]?.secret.toString('base64url')));
  if (secrets.size !== SERVICE_NAMES.length) {
    // One secret for two services would let a service's stolen key mint requests to the other.
    throw new ConfigError(
      'Invalid configuration:\n  CALLER_ASSERTION_SIGNING_KEYS: gives two services the same secret (each needs its own)',
    );
  }
  return Object.fromEntries(
    SERVICE_NAMES.map((service) => {
      const key = keys[service];
      if (!key) throw new Error('unreachable');
      return [service, callerAssertionSigner(key, service)];
    }),
  ) as Record<ServiceName, Mint>;
}
