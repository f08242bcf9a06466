import { z } from 'zod';
import { TEXT_LIMITS } from './text-limits.js';

/**
 * What a string of a request may hold (API.md, Conventions): never a lone surrogate (no UTF-8 spelling exists, so
 * Postgres refuses it in jsonb and the driver turns it into U+FFFD in text — what is stored would not be what was
 * validated) nor a NUL (neither text nor jsonb holds one). Names, titles, identifiers, slugs, filenames and emails
 * also refuse the bidirectional controls U+202A–U+202E and U+2066–U+2069, which make a name read as another.
 */
export type TextKind = 'name' | 'text';

// Without the `u` flag a regex sees UTF-16 code units, so an unpaired half of a surrogate pair can be matched.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/** What in `value` a `kind` string may not hold (`NUL characters`, …), or undefined when it holds nothing of the sort. */
export function unsafeCharactersIn(value: string, kind: TextKind): string | undefined {
  if (value.includes('\u0000')) return 'NUL characters';
  if (LONE_SURROGATE.test(value)) return 'lone surrogates (invalid Unicode)';
  if (kind === 'name' && BIDI_CONTROL.test(value)) return 'bidirectional control characters';
  return undefined;
}

/** Why `value` cannot be taken as a `kind` string (a message to follow the field's name), or undefined when it can. */
export function unsafeTextProblem(value: string, kind: TextKind): string | undefined {
  const found = unsafeCharactersIn(value, kind);
  return found === undefined ? undefined : `must not contain ${found}`;
}

/** `value` with each lone surrogate replaced by U+FFFD: printable in a message (String#toWellFormed, before ES2024). */
export function wellFormed(value: string): string {
  return value.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}

/** The check every request string carries: see unsafeTextProblem. */
function safeTextCheck(kind: TextKind) {
  return z.superRefine<string>((value, ctx) => {
    const problem = unsafeTextProblem(value, kind);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });
}

/**
 * A request string of `kind`, at most `max` characters: the one way the request schemas take a string, so every
 * field refuses what cannot be stored as given. Chain `.trim()`, `.min()`, `.regex()` as the field needs.
 */
export function safeString(kind: TextKind, max: number, message = 'must be a string') {
  return z
    .string({ message })
    .check(safeTextCheck(kind))
    .max(max, { message: `must be at most ${max} characters` });
}

/** A name, title, identifier, slug or filename: no NUL, lone surrogate or bidi control. */
export function nameString(max: number, message?: string) {
  return safeString('name', max, message);
}

/** A description, note or other prose: bidi controls allowed (right-to-left text needs them), nothing unstorable. */
export function proseString(max: number, message?: string) {
  return safeString('text', max, message);
}

/** An email address of at most `max` characters (name-like: no bidi controls). */
export function emailString(max: number) {
  return z
    .email({ message: 'must be an email address' })
    .max(max, { message: `must be at most ${max} characters` })
    .check(safeTextCheck('name'));
}

/** An explicit slug of products and categories: lowercase ASCII words joined by single hyphens. */
export const slugSchema = nameString(TEXT_LIMITS.slug).regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, {
  message: 'must contain only lowercase letters, digits and single hyphens',
});
