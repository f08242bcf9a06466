/** A JSON object read from a document; every value is checked before use. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as an object, or an empty one: a missing `paths`, `properties`… reads as "none". */
export function objectOf(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `['paths', '/a/{id}', 'get']` → `/paths/~1a~1{id}/get` (RFC 6901). */
export function toPointer(segments: readonly string[]): string {
  return segments.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The value a local reference (`#/components/schemas/Booking`) names; a reference to another file is refused. */
function resolveLocalRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, not ${ref}`);
  let value: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(value) || !(key in value)) throw new Error(`$ref ${ref} names nothing in the document`);
    value = value[key];
  }
  return value;
}

/** Follows a `$ref` (chains too) to what it names; keywords beside a 3.1 `$ref` win over the target's. */
export function dereference(document: unknown, value: unknown): { value: JsonObject; ref?: string } {
  let current = objectOf(value);
  let ref: string | undefined;
  for (let hops = 0; ; hops += 1) {
    const { $ref, ...siblings } = current;
    if (typeof $ref !== 'string') break;
    if (hops === 32) throw new Error(`$ref chain too long at ${$ref}`);
    ref = $ref;
    current = { ...objectOf(resolveLocalRef(document, $ref)), ...siblings };
  }
  return ref === undefined ? { value: current } : { value: current, ref };
}
