import { z } from 'zod';
import { nameString, proseString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';

/*
 * Field helpers of the events service's HTTP schemas (events-http.ts, event-types-http.ts); not
 * re-exported from the package index. Bodies and queries are strict: an unknown field is a 400 naming
 * it, so a typo never passes silently.
 */

/** A required name, title or identifier: trimmed, not empty, at most `max` characters. */
export const text = (max: number, emptyMessage = 'must not be empty') => nameString(max).trim().min(1, { message: emptyMessage });

/** A title: blank is the same as none, so it gets the spec's message (`title is required`). */
export const titleText = text(TEXT_LIMITS.shortTitle, 'is required');

/** Free text that may be empty, at most `max` characters. */
export const optionalText = (max: number) => proseString(max);

/** Every field of `shape` made optional, keeping each field's own type. */
export function allOptional<Shape extends Record<string, z.ZodType>>(shape: Shape): { [K in keyof Shape]: z.ZodOptional<Shape[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof Shape]: z.ZodOptional<Shape[K]>;
  };
}

/** What a DELETE of an event or an event type answers. */
export const eventDeletionSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
