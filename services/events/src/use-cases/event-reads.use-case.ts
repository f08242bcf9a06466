import type { ListEventsQuery } from '@app/contracts';
import { invalidInput } from '@app/service-kit';
import { listEvents as listEventRows } from '../db/event-list.query.js';
import { findEvent, type EventRow, type PresentedEventRow } from '../db/event.repository.js';
import { notFoundError, requireId, type Caller, type UseCaseContext } from './context.js';

export async function getEvent(id: string, includeCounts: boolean, caller: Caller, ctx: UseCaseContext): Promise<EventRow> {
  requireId(id, 'Event');
  const event = await findEvent(ctx.prisma, caller.organizationId, id, includeCounts);
  if (!event) throw notFoundError('Event');
  return event;
}

export async function listEvents(
  query: ListEventsQuery,
  caller: Caller,
  ctx: UseCaseContext,
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
