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
 * Only for a statement whose plan cannot turn bad as its tables grow: after five executions Postgres may keep one
 * generic plan per connection, made from the statistics of that moment, until the next ANALYZE. A lookup by key or
 * through a partial index stays an index scan however small the table was; a join of a parameter array or a
 * subquery's rows against a table planned while it was nearly empty stays a sequential scan of all of it (the
 * webhooks' claim and success statements: 9 ms per claim at 30,000 deliveries), so those stay unnamed.
 */
export function namedStatement(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text, values };
}

/** The page sizes a statement's LIMIT is written with: the API's default (50), its maximum (200), and the usual ones. */
const PAGE_SIZES = [10, 20, 25, 50, 100, 200] as const;

/**
 * `LIMIT <size>`, and ` OFFSET $n` past the first page, to end a page's named statement with, written so that Postgres can keep one generic plan for it.
 * With both as parameters the planner prices the generic plan as if the page were a tenth of the organization's rows,
 * so for a large organization it never chooses it and plans a list whose cost is its page again on every call (the
 * events list: 0.23 ms of planning beside 0.41 of execution). So the limit goes in as a literal, rounded up to the
 * next usual page size (the caller keeps the first `limit` rows) so that the texts stay few, as each is prepared on every
 * connection. The offset stays a parameter and is left out on the first page; a later page is planned for its
 * values, as before.
 */
export function pageClause(limit: number, offset: number, params: SqlParams): string {
  const size = PAGE_SIZES.find((candidate) => candidate >= limit);
  const sql = size === undefined ? `LIMIT ${params.add(limit)}::int` : `LIMIT ${size}`;
  return offset > 0 ? `${sql} OFFSET ${params.add(offset)}::int` : sql;
}
