import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Positional parameters of hand-built SQL: `add(value)` keeps the value and returns its placeholder, so
 * filters can be appended in any combination without counting `$n` by hand.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const names = new Map<string, string>();

/**
 * `text` as a named statement: each connection parses and plans it once instead of on every call
 * (planning is a third or more of a list query's time). The name is a digest of the text, so every
 * combination of filters is its own statement; the texts come from code, so there are finitely many.
 */
export function namedStatement(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text, values };
}
