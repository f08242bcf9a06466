import { UNCOMPARED_FIELDS } from '@app/contracts';
import { canonicalJson } from '../http/idempotency/request-hash.js';

/**
 * The `previous_attributes` of a change event (API.md, Change feed): each field of the record whose value the change
 * altered, with its value before, `updated_at` aside. `before` and `after` are the record as the API shows it (its
 * `domain/<entity>.record.ts`), so the fields are the API's; values are compared as JSON (key order aside), a field
 * the record did not have before is given as null.
 */
export function previousAttributes(before: object, after: object): Record<string, unknown> {
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter((field) => !UNCOMPARED_FIELDS.includes(field));
  return Object.fromEntries(
    fields.filter((field) => canonicalJson(was[field]) !== canonicalJson(is[field])).map((field) => [field, was[field] ?? null]),
  );
}
