import slugify from 'slugify';

const MAX_BASE_LENGTH = 80;
const FALLBACK = 'event-type';

/** A URL slug from a title: lowercase ASCII, accents stripped, words joined by single hyphens. */
export function slugFromTitle(title: string): string {
  const slug = slugify(title, { lower: true, strict: true, trim: true })
    .replace(/-+/g, '-')
    .slice(0, MAX_BASE_LENGTH)
    .replace(/^-|-$/g, '');
  // A title of only symbols or non-Latin script leaves nothing to build on.
  return slug.length > 0 ? slug : FALLBACK;
}

/** `base` when free, else `base-2`, `base-3`… the first one not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
