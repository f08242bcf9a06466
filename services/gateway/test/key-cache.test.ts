import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { KeyCache } from '../src/auth/key-cache.js';
import { RecentKeys } from '../src/auth/recent-keys.js';
import type { KeyIdentity } from '../src/identity/identity.repository.js';

const KNOWN: KeyIdentity = { apiKeyId: 'k1', organizationId: 'o1', timezone: 'UTC', type: 'secret', scopes: null, allowedOrigins: null };

/** A lookup whose answers the test releases one by one (`answer`), counting the lookups begun. */
function heldLookup() {
  const waiting: ((identity: KeyIdentity | null) => void)[] = [];
  const held = {
    begun: 0,
    lookup: (_key: string) =>
      new Promise<KeyIdentity | null>((resolve) => {
        held.begun += 1;
        waiting.push(resolve);
      }),
    answer: (identity: KeyIdentity | null) => waiting.shift()!(identity),
  };
  return held;
}

describe('KeyCache', () => {
  it('when more unknown keys are tried than the cache holds, then a known key is still answered without a lookup', async () => {
    const looked: string[] = [];
    const cache = new KeyCache(async (key) => {
      looked.push(key);
      return key === 'sk_known' ? KNOWN : null;
    }, 5000);
    expect(await cache.resolve('sk_known')).toEqual(KNOWN);

    for (let n = 0; n < 20_000; n++) expect(await cache.resolve(`sk_unknown_${n}`)).toBeNull();
    looked.length = 0;

    expect(await cache.resolve('sk_known')).toEqual(KNOWN);
    expect(looked).toEqual([]);
  });

  it('when a key was found, then cached() answers it at once with the hash RecentKeys knows it by; before, and when unknown, nothing', async () => {
    const cache = new KeyCache(async (key) => (key === 'sk_known' ? KNOWN : null), 5000);
    expect(cache.cached('sk_known')).toBeUndefined();
    await cache.resolve('sk_known');
    await cache.resolve('sk_unknown');

    expect(cache.cached('sk_known')).toEqual({ identity: KNOWN, hash: RecentKeys.hashOf('sk_known') });
    expect(cache.cached('sk_unknown')).toBeUndefined();
    cache.clear();
    expect(cache.cached('sk_known')).toBeUndefined();
  });

  it('when an unknown key is tried again within the TTL, then it is not looked up twice', async () => {
    let lookups = 0;
    const cache = new KeyCache(async () => {
      lookups += 1;
      return null;
    }, 5000);
    await cache.resolve('sk_unknown');
    await cache.resolve('sk_unknown');
    expect(lookups).toBe(1);
  });

  it('when many requests miss the same key at once, then one lookup answers them all', async () => {
    const held = heldLookup();
    const cache = new KeyCache(held.lookup, 5000);
    const answers = Promise.all(Array.from({ length: 20 }, () => cache.resolve('sk_known')));
    held.answer(KNOWN);
    expect(await answers).toEqual(Array.from({ length: 20 }, () => KNOWN));
    expect(held.begun).toBe(1);
  });

  it('when a key in use nears the end of its TTL, then it is looked up again in the background and its requests do not wait', async () => {
    const held = heldLookup();
    const cache = new KeyCache(held.lookup, 5000); // looked up again in its last second
    const first = cache.resolve('sk_known');
    held.answer(KNOWN);
    await first;

    await sleep(4300);
    // Answered from the entry while the refresh is still waiting on its lookup.
    expect(await cache.resolve('sk_known')).toEqual(KNOWN);
    expect(held.begun).toBe(2);
    held.answer(KNOWN);

    await sleep(1200); // past the first entry's TTL, within the refreshed one's
    expect(await cache.resolve('sk_known')).toEqual(KNOWN);
    expect(held.begun).toBe(2);
  });

  it('when the background lookup finds the key revoked, then the key is refused at once', async () => {
    const held = heldLookup();
    const cache = new KeyCache(held.lookup, 5000);
    const first = cache.resolve('sk_known');
    held.answer(KNOWN);
    await first;
    await sleep(4300);
    expect(await cache.resolve('sk_known')).toEqual(KNOWN);
    held.answer(null);
    await sleep(0);
    expect(await cache.resolve('sk_known')).toBeNull();
    expect(held.begun).toBe(2);
  });

  it('when the cache is cleared while a lookup is under way, then that lookup stores nothing and the next request looks up afresh', async () => {
    const held = heldLookup();
    const cache = new KeyCache(held.lookup, 5000);
    const before = cache.resolve('sk_known');
    cache.clear(); // a revocation on this replica
    held.answer(KNOWN);
    expect(await before).toEqual(KNOWN);

    const after = cache.resolve('sk_known');
    expect(held.begun).toBe(2);
    held.answer(null);
    expect(await after).toBeNull();
  });
});
