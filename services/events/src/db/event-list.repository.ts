import type { EventStatus, ListMeta } from '@app/contracts';
import { namedStatement, SqlParams, type ListDefinition, type ListPage, type PageSql, type Queryable } from '@app/service-kit';
import { CHECKED_IN, PLACES_TAKEN, PRESENTED_EVENT_COLUMNS, type PresentedEventRow } from './event.repository.js';

export interface EventFilters {
  organizationId: string;
  siteId?: string | undefined;
  status?: EventStatus | undefined;
  /** Only published events, whatever `status` asks (a publishable key's list): with another status, none. */
  publishedOnly?: true | undefined;
  /** Only events whose end (or start) is at or after `now`; ascending. */
  upcoming?: boolean | undefined;
  /** Only the others; descending. */
  past?: boolean | undefined;
  /** Local calendar dates (the event's start_date), inclusive. */
  startDate?: string | undefined;
  endDate?: string | undefined;
  includeCounts: boolean;
  now: Date;
}

const BY_START = [
  { column: 'starts_at', type: 'timestamptz' },
  { column: 'id', type: 'uuid' },
] as const;

/**
 * By starts_at, then id: ascending, or descending for `past` (the most recent first). Served by
 * events_organization_starts_idx (organization, starts_at, id), read forwards or backwards from the cursor.
 */
export function eventList(past: boolean | undefined): ListDefinition {
  return { name: 'events', order: { keys: BY_START, direction: past ? 'DESC' : 'ASC' } };
}

type ListedRow = Omit<PresentedEventRow, 'id'> & { id: string | null; total: number; before: number | null; cursorKeys: string | null };

/**
 * One page of events and its meta, in one statement. The counts come from a one-row subquery that the page is LEFT
 * JOINed to, so an empty page still reports them; the places taken are a column of the event (kept by a trigger), and
 * the places checked in a sum over a partial index per listed event (registrations_checked_in_idx), in this statement. The hottest read of the service: it goes through pg as a named statement, not through
 * Prisma, with the instants formatted by Postgres, and its page is written for one generic plan per connection
 * (`pageClause`, through ListPage).
 */
export async function listEvents(
  db: Queryable,
  filters: EventFilters,
  page: ListPage,
): Promise<{ rows: PresentedEventRow[]; meta: ListMeta }> {
  const params = new SqlParams();
  const sql = page.sql(params, 'e');
  const where = [whereClause(filters, params), ...sql.filters].join(' AND ');
  const counts = filters.includeCounts ? `, ${PLACES_TAKEN}, ${CHECKED_IN}` : '';
  const text = `
    WITH page AS (
      SELECT ${PRESENTED_EVENT_COLUMNS}${counts}, ${sql.cursorKeys} FROM events e WHERE ${sql.after ? `${where} AND ${sql.after}` : where}
       ORDER BY ${sql.orderBy} ${sql.limit}
    )
    SELECT t.total, t.before, p.*
      FROM (${countsOf(filters, page, where, sql, params)}) t
      LEFT JOIN page p ON true
     ORDER BY ${outsideOrder(filters)}`;
  const { rows } = await db.query<ListedRow>(namedStatement(text, params.values));
  const totals = { total: rows[0]?.total ?? 0, before: rows[0]?.before ?? null };
  const listed = page.rowsOf(rows.filter((row): row is ListedRow & { id: string; cursorKeys: string } => row.id !== null));
  return {
    rows: listed.map(({ total: _total, before: _before, cursorKeys: _cursorKeys, ...row }) => row),
    meta: page.meta(totals, listed),
  };
}

/**
 * The number of events matching the filters, and of those before the page. Without any filter the total is the
 * organization's running total (kept by triggers, one row), so the common unfiltered list does not count thousands of
 * rows each time; after a cursor, the rows before it are then counted alone, in the index from the start to the cursor.
 */
function countsOf(filters: EventFilters, page: ListPage, where: string, sql: PageSql, params: SqlParams): string {
  const filtered = [filters.siteId, filters.status, filters.publishedOnly, filters.startDate, filters.endDate, page.updatedSince].some(
    (value) => value !== undefined,
  );
  if (filtered || filters.upcoming || filters.past)
    return `SELECT count(*)::int AS total, ${sql.before} AS before FROM events e WHERE ${where}`;
  const before = sql.atOrBefore ? `(SELECT count(*)::int FROM events e WHERE ${where} AND ${sql.atOrBefore})` : 'NULL::int';
  return `SELECT COALESCE((SELECT events FROM event_totals WHERE organization_id = ${params.add(filters.organizationId)}::uuid), 0) AS total, ${before} AS before`;
}

/** The page's order outside it, on its presented columns: ids as text, compared bytewise like uuids. */
function outsideOrder(filters: EventFilters): string {
  const direction = filters.past ? 'DESC' : 'ASC';
  return `p."startsAt" ${direction}, p.id COLLATE "C" ${direction}`;
}

function whereClause(filters: EventFilters, params: SqlParams): string {
  const conditions = [`e.organization_id = ${params.add(filters.organizationId)}::uuid`];
  if (filters.siteId !== undefined) conditions.push(`e.site_id = ${params.add(filters.siteId)}`);
  if (filters.status !== undefined) conditions.push(`e.status = ${params.add(filters.status)}`);
  if (filters.publishedOnly) conditions.push(`e.status = 'published'`);
  if (filters.upcoming) conditions.push(`COALESCE(e.ends_at, e.starts_at) >= ${params.add(filters.now)}::timestamptz`);
  if (filters.past) conditions.push(`COALESCE(e.ends_at, e.starts_at) < ${params.add(filters.now)}::timestamptz`);
  if (filters.startDate !== undefined) conditions.push(`e.start_date >= ${params.add(filters.startDate)}::date`);
  if (filters.endDate !== undefined) conditions.push(`e.start_date <= ${params.add(filters.endDate)}::date`);
  return conditions.join(' AND ');
}
