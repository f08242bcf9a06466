import { LRUCache } from 'lru-cache';
import { hashApiKey } from '../identity/api-key.js';

/** API.md: a key that authenticated this recently is still served from an address over its failure limit. */
const RECENT_SUCCESS_MS = 10 * 60_000;
/** Keys in use on one gateway within ten minutes; past it the least recent fall back to the failure limit. */
const MAX_KEYS = 10_000;

/**
 * The keys that authenticated on this gateway in the last ten minutes, as SHA-256 hashes (no key is kept in memory
 * that long). It lets a client behind the same address as a guesser (one load balancer, one NAT) keep working while
 * the address is over AUTH_FAILURES_MAX, and is read before any lookup: recognising a key costs a hash, so guessing
 * stays as cheap for the database as before. Only a lookup that succeeded puts a key here, so a guesser cannot.
 *
 * Per process: with several gateways, each knows the keys that authenticated on it, so a key whose requests were
 * balanced onto another replica only may still get the 429 here (the failure counts themselves are shared in Redis
 * when RATE_LIMIT_REDIS_URL is set).
 */
export class RecentKeys {
  private readonly hashes = new LRUCache<string, true>({ max: MAX_KEYS, ttl: RECENT_SUCCESS_MS });

  /** The form a key is known by here (its stored SHA-256): computed once per request, for all three calls below. */
  static hashOf(key: string): string {
    return hashApiKey(key);
  }

  /** Whether the key of `hash` authenticated here within the last ten minutes. */
  has(hash: string): boolean {
    return this.hashes.has(hash);
  }

  /** Called on every success, so the ten minutes run from the key's latest use. */
  remember(hash: string): void {
    this.hashes.set(hash, true);
  }

  /** A key whose lookup failed (revoked since) is no longer one in use. */
  forget(hash: string): void {
    this.hashes.delete(hash);
  }
}
