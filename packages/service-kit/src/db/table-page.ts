import type { ListMeta } from '@app/contracts';
import type { ListPage } from './list-page.js';
import type { Queryable } from './sql.js';
import { namedStatement, type SqlParams } from './statements.js';

/** Where a plain list's rows come from: one table, and the list's own conditions on it (alias `t`). */
export interface ListSource {
  /** The table, unqualified (the pool's search_path is the service's schema). */
  table: string;
  /** The list's filters on `t`, the organization first; ANDed. */
  conditions: readonly string[];
  /** The parameters the conditions were written with; the page adds its own. */
  params: SqlParams;
}

/** What the statement adds to each row besides the list's columns; taken off before the rows are returned. */
interface PageColumns {
  total: number;
  before: number | null;
  cursorKeys: string | null;
}

/**
 * One page of a plain list (one table, filtered, in the list's order) and its meta, in one statement: the counts
 * are a one-row aggregate the page is LEFT JOINed to, so an empty page still reports them, and the page walks the
 * order's index from the cursor (or the offset) and stops at its LIMIT. `columns` is the select list of a row
 * (on `t`, or unqualified); none of its names may be `total`, `before`, `cursorKeys` or `sortKey<n>`.
 */
export async function pageOfRows<Row extends object>(
  db: Queryable,
  page: ListPage,
  source: ListSource & { columns: string },
): Promise<{ rows: Row[]; meta: ListMeta }> {
  const { params } = source;
  const sql = page.sql(params, 't');
  const where = [...source.conditions, ...sql.filters].join(' AND ');
  const pageWhere = sql.after ? `${where} AND ${sql.after}` : where;
  // The page's sort keys as they are (not as text) order it again outside the join, which keeps no order of its own.
  const { keys, direction } = page.order;
  const sortKeys = keys.map((key, index) => `t.${key.column} AS "sortKey${index}"`).join(', ');
  const sorted = keys.map((_key, index) => `p."sortKey${index}" ${direction}`).join(', ');
  const text = `
    SELECT c.total, c.before, p.*
      FROM (SELECT count(*)::int AS total, ${sql.before} AS before FROM ${source.table} t WHERE ${where}) c
      LEFT JOIN (
        SELECT ${source.columns}, ${sql.cursorKeys}, ${sortKeys}
          FROM ${source.table} t WHERE ${pageWhere}
         ORDER BY ${sql.orderBy} ${sql.limit}
      ) p ON true
     ORDER BY ${sorted}`;
  const { rows } = await db.query<Row & PageColumns>(namedStatement(text, params.values));
  const counts = { total: rows[0]?.total ?? 0, before: rows[0]?.before ?? null };
  const listed = page.rowsOf(rows.filter((row): row is Row & PageColumns & { cursorKeys: string } => row.cursorKeys !== null));
  return { rows: listed.map((row) => rowOf<Row>(row, keys.length)), meta: page.meta(counts, listed) };
}

function rowOf<Row>(row: PageColumns, sortKeyCount: number): Row {
  const { total: _total, before: _before, cursorKeys: _cursorKeys, ...rest } = row as PageColumns & Record<string, unknown>;
  for (let index = 0; index < sortKeyCount; index += 1) delete rest[`sortKey${index}`];
  return rest as Row;
}

/** The ids of one page of a plain list, and its meta (`pageOfRows`); the caller loads the records and keeps this order (`inPageOrder`). */
export async function pageOfIds(db: Queryable, page: ListPage, source: ListSource): Promise<{ ids: string[]; meta: ListMeta }> {
  const { rows, meta } = await pageOfRows<{ id: string }>(db, page, { ...source, columns: 't.id::text AS id' });
  return { ids: rows.map((row) => row.id), meta };
}

/** `records` in the order of `ids` (a page's); a record deleted since the page was read is left out. */
export function inPageOrder<Record extends { id: string }>(ids: readonly string[], records: readonly Record[]): Record[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
