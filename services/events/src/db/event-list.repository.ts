import type { EventStatus } from '@app/contracts';
import { namedStatement, pageClause, SqlParams, type Queryable } from '@app/service-kit';
import { PLACES_TAKEN, PRESENTED_EVENT_COLUMNS, type PresentedEventRow } from './event.repository.js';

export interface EventFilters {
  organizationId: string;
  siteId?: string;
  status?: EventStatus;
  /** Only events whose end (or start) is at or after `now`; ascending. */
  upcoming?: boolean;
  /** Only the others; descending. */
  past?: boolean;
  /** Local calendar dates (the event's start_date), inclusive. */
  startDate?: string;
  endDate?: string;
  includeCounts: boolean;
  limit: number;
  offset: number;
  now: Date;
}

type ListedRow = PresentedEventRow & { total: number };

/**
 * One page of events and the total, in one statement. The total comes from a one-row subquery that
 * the page is LEFT JOINed to, so an empty page still reports it; the places taken are a column of the
 * event (kept by a trigger), so counts cost nothing extra. The hottest read of the service: it goes
 * through pg as a named statement, not through Prisma, with the instants formatted by Postgres, and its page is
 * written for one generic plan per connection (`pageClause`).
 */
export async function listEvents(db: Queryable, filters: EventFilters): Promise<{ rows: PresentedEventRow[]; total: number }> {
  const params = new SqlParams();
  const where = whereClause(filters, params);
  const counts = filters.includeCounts ? `, ${PLACES_TAKEN}` : '';
  const page = pageClause(filters.limit, filters.offset, params);
  const text = `
    WITH page AS (
      SELECT ${PRESENTED_EVENT_COLUMNS}${counts} FROM events e WHERE ${where}
       ORDER BY ${orderBy(filters, 'e', 'starts_at')} ${page}
    )
    SELECT t.total, p.*
      FROM (${totalOf(filters, where, params)}) t
      LEFT JOIN page p ON true
     ORDER BY ${orderBy(filters, 'p', '"startsAt"')}`;
  const { rows } = await db.query<ListedRow>(namedStatement(text, params.values));
  const total = rows[0]?.total ?? 0;
  const listed = rows.filter((row) => row.id !== null).slice(0, filters.limit);
  return { rows: listed.map(({ total: _total, ...row }) => row), total };
}

/**
 * The number of events matching the filters. Without any filter it is the organization's running total
 * (kept by triggers, one row), so the common unfiltered list does not count thousands of rows each time.
 */
function totalOf(filters: EventFilters, where: string, params: SqlParams): string {
  const filtered = [filters.siteId, filters.status, filters.startDate, filters.endDate].some((value) => value !== undefined);
  if (filtered || filters.upcoming || filters.past) return `SELECT count(*)::int AS total FROM events e WHERE ${where}`;
  return `SELECT COALESCE((SELECT events FROM event_totals WHERE organization_id = ${params.add(filters.organizationId)}::uuid), 0) AS total`;
}

/** The same order inside the page (uuid ids) and outside it (ids as text, compared bytewise like uuids). */
function orderBy(filters: EventFilters, alias: string, startsAt: string): string {
  const direction = filters.past ? 'DESC' : 'ASC';
  const id = alias === 'e' ? 'e.id' : `${alias}.id COLLATE "C"`;
  return `${alias}.${startsAt} ${direction}, ${id} ${direction}`;
}

function whereClause(filters: EventFilters, params: SqlParams): string {
  const conditions = [`e.organization_id = ${params.add(filters.organizationId)}::uuid`];
  if (filters.siteId !== undefined) conditions.push(`e.site_id = ${params.add(filters.siteId)}`);
  if (filters.status !== undefined) conditions.push(`e.status = ${params.add(filters.status)}`);
  if (filters.upcoming) conditions.push(`COALESCE(e.ends_at, e.starts_at) >= ${params.add(filters.now)}::timestamptz`);
  if (filters.past) conditions.push(`COALESCE(e.ends_at, e.starts_at) < ${params.add(filters.now)}::timestamptz`);
  if (filters.startDate !== undefined) conditions.push(`e.start_date >= ${params.add(filters.startDate)}::date`);
  if (filters.endDate !== undefined) conditions.push(`e.start_date <= ${params.add(filters.endDate)}::date`);
  return conditions.join(' AND ');
}
