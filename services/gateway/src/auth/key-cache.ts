import { LRUCache } from 'lru-cache';
import type { KeyIdentity } from '../identity/identity.repository.js';
import { RecentKeys } from './recent-keys.js';

/** A known key's identity and the SHA-256 it is stored (and remembered by RecentKeys) under, hashed once per lookup. */
export interface CachedKey {
  identity: KeyIdentity;
  hash: string;
}

/** Known keys are few and hot; unknown ones are whatever a client invents, so they get a small cache of their own. */
const KNOWN_MAX = 10_000;
const UNKNOWN_MAX = 1_000;
/** A key in use is looked up again this long before its entry expires (at most a fifth of the TTL). */
const REFRESH_AHEAD_MS = 1000;

/**
 * Caches key lookups for at most `ttlMs` ≤ 5 s: a hot key costs no query, and a revoked key is refused everywhere
 * within the TTL without any cross-replica invalidation. Misses live in a separate, smaller cache, so a flood of
 * invented keys can evict other invented keys but never a known one. Requests that miss together share one lookup,
 * and a key in use is looked up again in the background shortly before its entry expires: its requests never wait on
 * a lookup, and every answer still comes from a lookup younger than the TTL.
 */
export class KeyCache {
  private readonly known: LRUCache<string, CachedKey>;
  private readonly unknown: LRUCache<string, true>;
  private readonly refreshAheadMs: number;
  /** Lookups under way, by key. */
  private readonly pending = new Map<string, Promise<KeyIdentity | null>>();
  /** Bumped by clear(): a lookup begun before it stores nothing, so a revocation is not undone by a lookup in flight. */
  private generation = 0;

  constructor(
    private readonly lookup: (key: string) => Promise<KeyIdentity | null>,
    ttlMs: number,
  ) {
    const ttl = Math.max(ttlMs, 1);
    this.known = new LRUCache({ max: KNOWN_MAX, ttl });
    this.unknown = new LRUCache({ max: UNKNOWN_MAX, ttl });
    this.refreshAheadMs = Math.min(REFRESH_AHEAD_MS, ttl / 5);
  }

  /**
   * The key's entry when a lookup younger than the TTL found it, at once (no promise: the hot path of every request),
   * and its background refresh when the entry is about to expire.
   */
  cached(key: string): CachedKey | undefined {
    const cached = this.known.get(key);
    // A failed refresh changes nothing: the entry lives out its TTL, and the next request's own lookup reports it.
    if (cached !== undefined && this.known.getRemainingTTL(key) < this.refreshAheadMs) this.lookUp(key).catch(() => undefined);
    return cached;
  }

  async resolve(key: string): Promise<KeyIdentity | null> {
    const cached = this.cached(key);
    if (cached !== undefined) return cached.identity;
    if (this.unknown.has(key)) return null;
    return this.lookUp(key);
  }

  /** Drops every cached lookup (used after a revocation on this replica, so it takes effect at once here). */
  clear(): void {
    this.generation += 1;
    this.pending.clear();
    this.known.clear();
    this.unknown.clear();
  }

  private lookUp(key: string): Promise<KeyIdentity | null> {
    const running = this.pending.get(key);
    if (running) return running;
    const generation = this.generation;
    const lookup = this.lookup(key)
      .then((identity) => {
        if (generation === this.generation) this.store(key, identity);
        return identity;
      })
      .finally(() => {
        if (this.pending.get(key) === lookup) this.pending.delete(key);
      });
    this.pending.set(key, lookup);
    return lookup;
  }

  private store(key: string, identity: KeyIdentity | null): void {
    if (identity) {
      this.known.set(key, { identity, hash: RecentKeys.hashOf(key) });
      this.unknown.delete(key);
    } else {
      // A refresh that finds the key gone (revoked elsewhere) refuses it from now on, not only once its entry expires.
      this.known.delete(key);
      this.unknown.set(key, true);
    }
  }
}
