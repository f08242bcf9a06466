import type { EventRecord, ListEventsQuery, ListMeta } from '@app/contracts';
import { invalidInput, isPublishable, listPage, notFound, recordId, type Caller, type Versioned } from '@app/service-kit';
import { eventList, listEvents as listEventRows } from '../db/event-list.repository.js';
import { findEvent } from '../db/event.repository.js';
import { eventRecord } from '../domain/event.record.js';
import type { UseCaseContext } from './context.js';

/** An event of the organization; a publishable key (a public page) sees published ones only, any other is its 404. */
export async function getEvent(
  ctx: UseCaseContext,
  caller: Caller,
  { id, includeCounts }: { id: string; includeCounts: boolean },
): Promise<Versioned<EventRecord>> {
  const event = await findEvent(ctx.prisma, caller.organizationId, recordId(id, 'Event'), includeCounts);
  if (!event || (isPublishable(caller) && event.status !== 'published')) throw notFound('Event');
  // One ETag with counts or without: places taken raise the event's version, and the places checked in (which do not
  // touch the event's row) are part of it beside the version, so either answer's tag changes with them.
  return { record: eventRecord(event), version: [event.version, event.checkedIn] };
}

export async function listEvents(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListEventsQuery,
): Promise<{ items: EventRecord[]; meta: ListMeta }> {
  if (query.upcoming && query.past) throw invalidInput('past', 'upcoming and past cannot both be true');
  if (query.start_date && query.end_date && query.end_date < query.start_date)
    throw invalidInput('end_date', 'end_date must not be before start_date');
  const filters = {
    siteId: query.site_id,
    status: query.status,
    upcoming: query.upcoming,
    past: query.past,
    startDate: query.start_date,
    endDate: query.end_date,
    // A publishable key lists published events only: its totals and cursors are those of that narrower list.
    publishedOnly: isPublishable(caller) || undefined,
  };
  // include_counts only adds a field: a cursor stays valid with or without it.
  const page = listPage(eventList(query.past), { organizationId: caller.organizationId, filters }, query);
  const { rows, meta } = await listEventRows(
    ctx.pool,
    { ...filters, organizationId: caller.organizationId, includeCounts: query.include_counts ?? false, now: ctx.now() },
    page,
  );
  return { items: rows.map(eventRecord), meta };
}
