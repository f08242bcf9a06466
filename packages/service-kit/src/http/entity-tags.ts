import { createHash } from 'node:crypto';

/**
 * What a record's ETag is made of: the `version` of its row, which every write grows (the kit's
 * `bump_record_version()` trigger, migrations/0007), or the versions of every row its public JSON is built from,
 * in a fixed order (a product and its featured media file), a flag for what is derived from another record
 * (whether an image is its product's featured one).
 */
export type RecordVersion = number | readonly (number | boolean)[];

/**
 * The strong ETag of record `id` at `version`: `"` + 22 base64url characters of SHA-256 over both + `"`. A digest
 * rather than the version itself because
 * - it is opaque: no client can read a version out of it or build the next one, so what goes into it may change
 *   (another joined row) without breaking anyone, as API.md's `"<opaque>"` says;
 * - it is bound to the record: the same version of two records gives two tags, so an `If-Match` copied from another
 *   record never passes;
 * - it is cheap and needs no storage: one hash of a short string per answer, none of the body.
 * Strong, since every write changes a version: two answers with one tag show the same JSON. 132 bits make a
 * collision between two states of one record out of reach.
 */
export function entityTag(id: string, version: RecordVersion): string {
  const parts = typeof version === 'number' ? [version] : version.map(Number);
  const digest = createHash('sha256')
    .update(`${id}\n${parts.join('.')}`)
    .digest('base64url')
    .slice(0, 22);
  return `"${digest}"`;
}

/** One member of an `If-Match` or `If-None-Match` list: its opaque tag with the quotes, and whether it was `W/`. */
export interface ListedTag {
  opaque: string;
  weak: boolean;
}

/**
 * The members of an `If-Match` or `If-None-Match` header (RFC 9110 §8.8.3: `"*"` or `#entity-tag`, a tag being
 * `[W/]"<etagc>*"`), or `'*'`. A member that is not an entity tag matches nothing and is skipped; commas inside the
 * quotes of a tag belong to it. undefined when the header is absent or blank: no condition.
 */
export function parseTagList(header: string | undefined): '*' | ListedTag[] | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const tags: ListedTag[] = [];
  let at = 0;
  while (at < header.length) {
    while (at < header.length && (header[at] === ',' || header[at] === ' ' || header[at] === '\t')) at += 1;
    if (at >= header.length) break;
    if (header[at] === '*') return '*';
    const weak = header.startsWith('W/', at);
    const open = weak ? at + 2 : at;
    const close = header[open] === '"' ? header.indexOf('"', open + 1) : -1;
    if (close === -1) {
      // Not an entity tag: skip to the next member.
      const comma = header.indexOf(',', at);
      at = comma === -1 ? header.length : comma + 1;
      continue;
    }
    tags.push({ opaque: header.slice(open, close + 1), weak });
    at = close + 1;
  }
  return tags;
}
