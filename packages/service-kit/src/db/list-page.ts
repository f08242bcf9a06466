import pg from 'pg';
import { isUuid, type ListMeta } from '@app/contracts';
import { decodeListCursor, encodeListCursor, type CursorScope } from './list-cursor.js';
import { pageClause, type SqlParams } from './statements.js';

/** The column types a list may sort by; each is written into cursors as text and read back with its cast. */
export type SortKeyType = 'timestamptz' | 'uuid';

export interface SortKey {
  /** The column, without a table alias (the statement gives one). */
  readonly column: string;
  readonly type: SortKeyType;
}

/**
 * A list's order: its sort keys, most significant first, all in one direction, the last one unique (the id),
 * so that the order is total and a cursor names one place in it. Every key is a NOT NULL column.
 */
export interface ListOrder {
  readonly keys: readonly [...SortKey[], SortKey];
  readonly direction: 'ASC' | 'DESC';
}

/** A list as its cursors know it. */
export interface ListDefinition {
  /** Names the list in its cursors: a cursor of one list is unknown to every other. */
  readonly name: string;
  readonly order: ListOrder;
}

/** What every list query carries (`listQuerySchema` of @app/contracts). */
export interface ListQuery {
  limit: number;
  offset?: number | undefined;
  cursor?: string | undefined;
  updated_since?: Date | undefined;
}

/** Who lists, and with which of the list's own filters: what a cursor is valid for. */
export interface ListScope {
  organizationId: string;
  /** The filters as the list applies them (normalised, defaults filled in); undefined ones count as absent. */
  filters?: Record<string, unknown>;
}

/**
 * A page's row as the statement returns it: whatever the list selects, plus its sort keys as one text, a Postgres
 * array literal (`PageSql.cursorKeys`). Text, not text[]: pg would parse the array of every row, a character at a
 * time (a tenth of an events list's CPU), when only the last row's keys become the next cursor.
 */
export interface CursorKeyed {
  cursorKeys: string;
}

/** pg's parser of a text[] literal, for the one row whose keys make the cursor (1009: text[], not among pg's typed builtins). */
const TEXT_ARRAY_OID = 1009;
const parseTextArray = (pg.types.getTypeParser as (oid: number) => (literal: string) => string[])(TEXT_ARRAY_OID);

/** The SQL of one page of a list, its parameters already added; each piece is for the statement's table alias. */
export interface PageSql {
  /** Conditions of the list beside its own filters (updated_since): for the page and for the counts alike. */
  readonly filters: readonly string[];
  /** After a cursor: only the rows past it (for the page, not the counts). */
  readonly after: string | undefined;
  /** After a cursor: only the rows up to it, the cursor's own included, i.e. those before the page. */
  readonly atOrBefore: string | undefined;
  /** An aggregate over the list's rows: how many come before the page; NULL when paging by offset (the offset says it). */
  readonly before: string;
  /** The list's ORDER BY. */
  readonly orderBy: string;
  /** A select-list item: the row's sort keys as a text array literal, `"cursorKeys"`, for the next page's cursor. */
  readonly cursorKeys: string;
  /** LIMIT (and OFFSET): `pageClause`. Keep the first `limit` rows of what comes back. */
  readonly limit: string;
}

const KEY_TEXT: Record<SortKeyType, (column: string) => string> = {
  // Microseconds: Postgres keeps them, and a cursor rounded to milliseconds would repeat or skip rows within one.
  timestamptz: (column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  uuid: (column) => `${column}::text`,
};

const INSTANT_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const IS_KEY: Record<SortKeyType, (text: string) => boolean> = {
  // A real instant: Postgres would refuse 2026-13-45 with an error, not a 400.
  timestamptz: (text) => {
    if (!INSTANT_TEXT.test(text)) return false;
    const millis = `${text.slice(0, 23)}Z`;
    const date = new Date(millis);
    return !Number.isNaN(date.getTime()) && date.toISOString() === millis;
  },
  uuid: isUuid,
};

/** `column >= since`: the one condition behind every list's `updated_since`. */
export function updatedSinceCondition(column: string, since: Date, params: SqlParams): string {
  return `${column} >= ${params.add(since)}::timestamptz`;
}

/**
 * One page of a list as a query asked for it: by offset, or after a cursor this list made for the same
 * organization and filters (anything else is 400 CURSOR_INVALID), with updated_since. It writes the page's SQL
 * (`sql`) and its `meta` (`meta`), so that every list pages, counts and makes cursors the same way.
 *
 * Paging by cursor is keyset paging: the page is the rows after the cursor's sort keys in the list's order,
 * `(k1, …, id) > (…)`, which an index on the keys serves from the cursor on. A row inserted meanwhile before the
 * cursor is not in the walk and one after it is, so nothing in the order is skipped or repeated; only a row whose
 * sort key itself changes between pages moves within the order.
 */
export class ListPage {
  readonly order: ListOrder;
  readonly limit: number;
  /** Paging by offset: the rows skipped (0 when not given). Undefined after a cursor. */
  readonly offset: number | undefined;
  /** Paging by cursor: the sort key values of the row the page starts after. */
  readonly after: readonly string[] | undefined;
  readonly updatedSince: Date | undefined;
  private readonly scope: CursorScope;

  constructor(list: ListDefinition, scope: ListScope, query: ListQuery) {
    this.order = list.order;
    this.limit = query.limit;
    this.updatedSince = query.updated_since;
    // updated_since is one of the list's filters: a cursor made with another one is refused like any other.
    const filters = { ...scope.filters, updated_since: query.updated_since };
    this.scope = { list: `${list.name}:${list.order.direction}`, organizationId: scope.organizationId, filters };
    const isKey = list.order.keys.map((key) => IS_KEY[key.type]);
    this.after = query.cursor === undefined ? undefined : decodeListCursor(this.scope, query.cursor, isKey);
    this.offset = this.after === undefined ? (query.offset ?? 0) : undefined;
  }

  sql(params: SqlParams, alias: string): PageSql {
    const { keys, direction } = this.order;
    const column = (key: SortKey) => `${alias}.${key.column}`;
    const filters = this.updatedSince ? [updatedSinceCondition(`${alias}.updated_at`, this.updatedSince, params)] : [];
    let after: string | undefined;
    let atOrBefore: string | undefined;
    if (this.after) {
      const values = this.after;
      const row = `(${keys.map(column).join(', ')})`;
      const cursor = `(${keys.map((key, index) => `${params.add(values[index])}::${key.type}`).join(', ')})`;
      after = `${row} ${direction === 'ASC' ? '>' : '<'} ${cursor}`;
      atOrBefore = `${row} ${direction === 'ASC' ? '<=' : '>='} ${cursor}`;
    }
    return {
      filters,
      after,
      atOrBefore,
      before: atOrBefore ? `count(*) FILTER (WHERE ${atOrBefore})::int` : 'NULL::int',
      orderBy: keys.map((key) => `${column(key)} ${direction}`).join(', '),
      cursorKeys: `ARRAY[${keys.map((key) => KEY_TEXT[key.type](column(key))).join(', ')}]::text AS "cursorKeys"`,
      limit: pageClause(this.limit, this.offset ?? 0, params),
    };
  }

  /** The rows of the page among what the statement returned (its LIMIT may round the page size up). */
  rowsOf<Row>(rows: readonly Row[]): Row[] {
    return rows.slice(0, this.limit);
  }

  /**
   * The page's meta from the list's total, the count of rows before the page (`PageSql.before`; ignored when
   * paging by offset) and the page's rows, all read in one statement so that they agree. `next_cursor` is the
   * place after the page's last row, in offset paging too (a client may switch); null on the last page.
   */
  meta(counts: { total: number; before: number | null }, rows: readonly CursorKeyed[]): ListMeta {
    const offset = this.offset ?? counts.before ?? 0;
    const last = rows.at(-1);
    const hasMore = last !== undefined && offset + rows.length < counts.total;
    return {
      total: counts.total,
      limit: this.limit,
      offset,
      hasMore,
      next_cursor: hasMore ? encodeListCursor(this.scope, parseTextArray(last.cursorKeys)) : null,
    };
  }
}

/** The page of `list` that `query` asks for, for `scope`: 400 CURSOR_INVALID for a cursor that is not one of its own. */
export function listPage(list: ListDefinition, scope: ListScope, query: ListQuery): ListPage {
  return new ListPage(list, scope, query);
}
