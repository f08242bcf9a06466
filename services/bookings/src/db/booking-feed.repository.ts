import type { Db } from './prisma.js';

/** The statuses a calendar feed shows: a booking that is held or agreed. */
const FEED_STATUSES = ['PENDING', 'CONFIRMED'];

export interface FeedPageQuery {
  organizationId: string;
  scheduleId: string;
  from: Date;
  to: Date;
  /** Right after this booking in (start_time, id) order; null for the first page. */
  after: { startTime: Date; id: string } | null;
  limit: number;
}

/**
 * One page of the schedule's PENDING and CONFIRMED bookings starting in [from, to), by (start_time, id): served by
 * bookings_org_schedule_start_idx (organization, schedule, start_time).
 */
export function feedPage(db: Db, query: FeedPageQuery) {
  const { after } = query;
  return db.booking.findMany({
    where: {
      organizationId: query.organizationId,
      scheduleId: query.scheduleId,
      status: { in: FEED_STATUSES },
      startTime: { gte: query.from, lt: query.to },
      ...(after ? { OR: [{ startTime: { gt: after.startTime } }, { startTime: after.startTime, id: { gt: after.id } }] } : {}),
    },
    orderBy: [{ startTime: 'asc' }, { id: 'asc' }],
    take: query.limit,
    select: { id: true, startTime: true, endTime: true, status: true, title: true, attendeeName: true, version: true, updatedAt: true },
  });
}
