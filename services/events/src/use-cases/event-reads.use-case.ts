import type { ListEventsQuery } from '@app/contracts';
import { invalidInput, notFound, recordId, type Caller } from '@app/service-kit';
import { listEvents as listEventRows } from '../db/event-list.repository.js';
import { findEvent, type EventRow, type PresentedEventRow } from '../db/event.repository.js';
import type { UseCaseContext } from './context.js';

export async function getEvent(
  ctx: UseCaseContext,
  caller: Caller,
  { id, includeCounts }: { id: string; includeCounts: boolean },
): Promise<EventRow> {
  const event = await findEvent(ctx.prisma, caller.organizationId, recordId(id, 'Event'), includeCounts);
  if (!event) throw notFound('Event');
  return event;
}

export async function listEvents(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListEventsQuery,
): Promise<{ rows: PresentedEventRow[]; total: number }> {
  if (query.upcoming && query.past) throw invalidInput('past', 'upcoming and past cannot both be true');
  if (query.start_date && query.end_date && query.end_date < query.start_date)
    throw invalidInput('end_date', 'end_date must not be before start_date');
  return listEventRows(ctx.pool, {
    organizationId: caller.organizationId,
    siteId: query.site_id,
    status: query.status,
    upcoming: query.upcoming,
    past: query.past,
    startDate: query.start_date,
    endDate: query.end_date,
    includeCounts: query.include_counts ?? false,
    limit: query.limit,
    offset: query.offset,
    now: ctx.now(),
  });
}
