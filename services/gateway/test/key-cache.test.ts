import { describe, expect, it } from 'vitest';
import { KeyCache } from '../src/auth/key-cache.js';

const KNOWN = { apiKeyId: 'k1', organizationId: 'o1', timezone: 'UTC' };

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
});
