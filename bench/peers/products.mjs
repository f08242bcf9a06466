// The catalog both systems of `npm run bench:peers` are seeded with: the same 20,000 products, generated here and
// nowhere else, so that a search or a first page lists the same products on each (run.mjs checks that it does).
import { createHash } from 'node:crypto';
import { ADJECTIVES, MATERIALS, NOUNS } from '../lib/product-words.mjs';

export const PRODUCT_COUNT = 20_000;

/**
 * Product n (1 … PRODUCT_COUNT): "<Adjective> <Material> <Noun> <n>" (each noun in 1 of 20 products, each material in
 * 1 of 10), a description that holds none of the name's words (Medusa's `q` also searches descriptions and handles:
 * a word of the name must select the same products on both), a handle `bench-<n>`, a price of 1.00–99.99, a tenth
 * draft, and an age of n seconds (product 1 is the newest), so "newest first" is the same order on both.
 */
export function product(n) {
  return {
    n,
    title: `${ADJECTIVES[n % 10]} ${MATERIALS[Math.floor(n / 10) % 10]} ${NOUNS[Math.floor(n / 100) % 20]} ${n}`,
    description: `Bench product number ${n}, made for the side-by-side benchmark.`,
    handle: `bench-${n}`,
    priceCents: 100 + ((n * 7919) % 9900),
    published: n % 10 !== 0,
    ageSeconds: n,
  };
}

export function products() {
  return Array.from({ length: PRODUCT_COUNT }, (_, i) => product(i + 1));
}

/** A fingerprint of the catalog: a seed made from another version of this file is seeded again. */
export function catalogFingerprint() {
  return createHash('sha256').update(JSON.stringify(products())).digest('hex').slice(0, 16);
}

/** What both systems are asked (the two queries): a word or phrase of the names, and no search at all. */
export const SEARCHES = ['mug', 'copper', 'blue oak'];
export const PAGE_SIZE = 20;
