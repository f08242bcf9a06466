import { LRUCache } from 'lru-cache';
import type { KeyIdentity } from '../db/identity.repository.js';

const UNKNOWN = Symbol('unknown key');

/**
 * Caches key lookups (hits and misses) for at most `ttlMs` ≤ 5 s: a hot key costs no query, and a revoked
 * key is refused everywhere within the TTL without any cross-replica invalidation.
 */
export class KeyCache {
  private readonly cache: LRUCache<string, KeyIdentity | typeof UNKNOWN>;

  constructor(
    private readonly lookup: (key: string) => Promise<KeyIdentity | null>,
    ttlMs: number,
  ) {
    this.cache = new LRUCache({ max: 10_000, ttl: Math.max(ttlMs, 1) });
  }

  async resolve(key: string): Promise<KeyIdentity | null> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached === UNKNOWN ? null : cached;
    const identity = await this.lookup(key);
    this.cache.set(key, identity ?? UNKNOWN);
    return identity;
  }

  /** Drops every cached lookup (used after a revocation on this replica, so it takes effect at once here). */
  clear(): void {
    this.cache.clear();
  }
}
