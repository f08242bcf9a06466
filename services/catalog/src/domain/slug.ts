import slugify from 'slugify';

/** Leaves room for a `-<n>` suffix within the 200 characters a slug may have. */
const MAX_BASE_LENGTH = 180;

/**
 * The slug generated from a product name: lowercase ASCII words joined by single hyphens, accents
 * transliterated (`Crème Brûlée` → `creme-brulee`); `fallback` (`product`) when nothing of the name survives. Categories'
 * slugs are made the same way.
 */
export function slugFromName(name: string, fallback = 'product'): string {
  const slug = slugify(name, { lower: true, strict: true, trim: true })
    .replace(/-+/g, '-')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/**
 * The first free slug of the family `base`, `base-2`, `base-3`… given the slugs of that family that are
 * already taken (others in `taken` are ignored).
 */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
