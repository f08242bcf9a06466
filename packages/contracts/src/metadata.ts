import { z } from 'zod';
import { unsafeTextProblem, wellFormed } from './safe-text.js';
import { METADATA_MAX_BYTES, TEXT_LIMITS } from './text-limits.js';

const utf8 = new TextEncoder();

/** Every key and string value of `value`, at any depth, with where it is (a key: the path of the object holding it). */
function* stringsOf(value: unknown, path: PropertyKey[]): Generator<{ path: PropertyKey[]; text: string; key?: string }> {
  if (typeof value === 'string') yield { path, text: value };
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* stringsOf(item, [...path, index]);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      yield { path, text: key, key };
      yield* stringsOf(item, [...path, wellFormed(key)]);
    }
}

/**
 * A free-form JSON object a client attaches to a record (bookings' `metadata`): an array or a scalar is refused, its
 * keys and string values are text (no lone surrogate or NUL, at any depth), and it weighs at most METADATA_MAX_BYTES
 * as JSON, so a list of 200 records stays a few MB at most.
 */
export const metadataSchema = z
  .record(z.string().max(TEXT_LIMITS.metadataKey), z.unknown(), {
    error: (issue) =>
      issue.code === 'invalid_key' ? `must be a key of at most ${TEXT_LIMITS.metadataKey} characters` : 'must be an object',
  })
  .superRefine((value, ctx) => {
    for (const { path, text, key } of stringsOf(value, [])) {
      const problem = unsafeTextProblem(text, 'text');
      if (problem === undefined) continue;
      // A key is named in the message, not the path: the path must stay printable, and the key may be what is wrong.
      const message = key === undefined ? problem : `key ${JSON.stringify(wellFormed(key))} ${problem}`;
      ctx.addIssue({ code: 'custom', path, message, input: text });
      return;
    }
    const bytes = utf8.encode(JSON.stringify(value)).length;
    if (bytes > METADATA_MAX_BYTES)
      ctx.addIssue({ code: 'custom', message: `must be at most ${METADATA_MAX_BYTES} bytes as JSON (it is ${bytes})`, input: value });
  })
  .meta({ description: `A JSON object of at most ${METADATA_MAX_BYTES} bytes (UTF-8 of its JSON)` });
