import type { EventStatus } from '@app/contracts';
import { Prisma } from '../generated/prisma/client.js';
import { EVENT_COLUMNS, placesTakenOf, type EventRow } from './event.repository.js';
import type { Db } from './prisma.js';

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

type ListedRow = EventRow & { total: number };

/**
 * One page of events and the total, in one statement. The total comes from a one-row subquery that
 * the page is LEFT JOINed to, so an empty page still reports it; with counts, a lateral aggregate over
 * the page's registrations adds the places taken (an index-only sum per listed event, not a query each).
 */
export async function listEvents(db: Db, filters: EventFilters): Promise<{ rows: EventRow[]; total: number }> {
  const where = whereClause(filters);
  const counts = filters.includeCounts
    ? Prisma.sql`, c."placesTaken" FROM page p LEFT JOIN LATERAL (SELECT ${placesTakenOf(Prisma.sql`p.id::uuid`)} AS "placesTaken") c ON true`
    : Prisma.sql` FROM page p`;
  const result = await db.$queryRaw<ListedRow[]>`
    WITH page AS (
      SELECT ${EVENT_COLUMNS} FROM events e WHERE ${where}
       ORDER BY ${orderBy(filters, 'e', 'starts_at')} LIMIT ${filters.limit}::int OFFSET ${filters.offset}::int
    ), listed AS (SELECT p.* ${counts})
    SELECT t.total, l.*
      FROM (${totalOf(filters, where)}) t
      LEFT JOIN listed l ON true
     ORDER BY ${orderBy(filters, 'l', '"startsAt"')}`;
  const total = result[0]?.total ?? 0;
  return { rows: result.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row), total };
}

/**
 * The number of events matching the filters. Without any filter it is the organization's running total
 * (kept by triggers, one row), so the common unfiltered list does not count thousands of rows each time.
 */
function totalOf(filters: EventFilters, where: Prisma.Sql): Prisma.Sql {
  const filtered = [filters.siteId, filters.status, filters.startDate, filters.endDate].some((value) => value !== undefined);
  if (filtered || filters.upcoming || filters.past) return Prisma.sql`SELECT count(*)::int AS total FROM events e WHERE ${where}`;
  return Prisma.sql`SELECT COALESCE((SELECT events FROM event_totals WHERE organization_id = ${filters.organizationId}::uuid), 0) AS total`;
}

/** The same order inside the page (uuid ids) and outside it (ids as text, compared bytewise like uuids). */
function orderBy(filters: EventFilters, alias: string, startsAt: string): Prisma.Sql {
  const direction = filters.past ? 'DESC' : 'ASC';
  const id = alias === 'e' ? 'e.id' : `${alias}.id COLLATE "C"`;
  return Prisma.raw(`${alias}.${startsAt} ${direction}, ${id} ${direction}`);
}

function whereClause(filters: EventFilters): Prisma.Sql {
  const conditions = [Prisma.sql`e.organization_id = ${filters.organizationId}::uuid`];
  if (filters.siteId !== undefined) conditions.push(Prisma.sql`e.site_id = ${filters.siteId}`);
  if (filters.status !== undefined) conditions.push(Prisma.sql`e.status = ${filters.status}`);
  if (filters.upcoming) conditions.push(Prisma.sql`COALESCE(e.ends_at, e.starts_at) >= ${filters.now}::timestamptz`);
  if (filters.past) conditions.push(Prisma.sql`COALESCE(e.ends_at, e.starts_at) < ${filters.now}::timestamptz`);
  if (filters.startDate !== undefined) conditions.push(Prisma.sql`e.start_date >= ${filters.startDate}::date`);
  if (filters.endDate !== undefined) conditions.push(Prisma.sql`e.start_date <= ${filters.endDate}::date`);
  return Prisma.join(conditions, ' AND ');
}
