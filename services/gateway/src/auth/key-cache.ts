import { LRUCache } from 'lru-cache';
import type { KeyIdentity } from '../db/identity.repository.js';

/** Known keys are few and hot; unknown ones are whatever a client invents, so they get a small cache of their own. */
const KNOWN_MAX = 10_000;
const UNKNOWN_MAX = 1_000;

/**
 * Caches key lookups for at most `ttlMs` ≤ 5 s: a hot key costs no query, and a revoked key is refused everywhere
 * within the TTL without any cross-replica invalidation. Misses live in a separate, smaller cache, so a flood of
 * invented keys can evict other invented keys but never a known one.
 */
export class KeyCache {
  private readonly known: LRUCache<string, KeyIdentity>;
  private readonly unknown: LRUCache<string, true>;

  constructor(
    private readonly lookup: (key: string) => Promise<KeyIdentity | null>,
    ttlMs: number,
  ) {
    const ttl = Math.max(ttlMs, 1);
    this.known = new LRUCache({ max: KNOWN_MAX, ttl });
    this.unknown = new LRUCache({ max: UNKNOWN_MAX, ttl });
  }

  async resolve(key: string): Promise<KeyIdentity | null> {
    const cached = this.known.get(key);
    if (cached !== undefined) return cached;
    if (this.unknown.has(key)) return null;
    const identity = await this.lookup(key);
    if (identity) this.known.set(key, identity);
    else this.unknown.set(key, true);
    return identity;
  }

  /** Drops every cached lookup (used after a revocation on this replica, so it takes effect at once here). */
  clear(): void {
    this.known.clear();
    this.unknown.clear();
  }
}
