import type { FastifyRequest } from 'fastify';
import { unsafeCharactersIn, unsafeTextProblem, wellFormed } from '@app/contracts';
import { invalidInput } from '../errors.js';

/** Deeper than any body of the API needs (booking metadata included); deeper input is refused, not recursed into. */
const MAX_INPUT_DEPTH = 32;

interface Finding {
  path: string;
  message: string;
}

/** Parsed JSON, or a parsed query (whose prototype is an empty object of a null prototype); never a stream or buffer. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}

function join(path: string, key: string | number): string {
  return path ? `${path}.${key}` : String(key);
}

/** A key as a path segment: printable (no NUL, no lone surrogate), so the message naming it can be read and sent. */
function printable(key: string): string {
  return wellFormed(key.replaceAll('\u0000', '\\0'));
}

/** The first unstorable string (a NUL, a lone surrogate) or excessive nesting in parsed JSON or a query, with where it is. */
function findUnstorableInput(value: unknown, path = '', depth = 0): Finding | undefined {
  if (typeof value === 'string') {
    const problem = unsafeTextProblem(value, 'text');
    return problem === undefined ? undefined : { path: path || 'body', message: problem };
  }
  const container = Array.isArray(value) || isPlainObject(value);
  if (!container) return undefined;
  if (depth >= MAX_INPUT_DEPTH) return { path: path || 'body', message: `must not be nested more than ${MAX_INPUT_DEPTH} levels deep` };
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const inKey = typeof key === 'string' ? unsafeCharactersIn(key, 'text') : undefined;
    if (inKey !== undefined) return { path: join(path, printable(String(key))), message: `must not have ${inKey} in its name` };
    const finding = findUnstorableInput(item, join(path, typeof key === 'string' ? printable(key) : key), depth + 1);
    if (finding) return finding;
  }
  return undefined;
}

/**
 * preValidation hook of every service: Postgres text and jsonb cannot hold U+0000 nor a lone surrogate (which has no
 * UTF-8 form: jsonb refuses it, text would get U+FFFD), and deeply nested JSON
 * overflows the stack of whatever walks it later. Both are the client's mistake, so both are a 400 naming
 * the field, in every service alike, before any schema or query sees them.
 */
export async function inputGuard(request: FastifyRequest): Promise<void> {
  const finding = findUnstorableInput(request.query) ?? findUnstorableInput(request.body);
  if (!finding) return;
  const message = `${finding.path} ${finding.message}`;
  throw invalidInput(finding.path, message);
}
