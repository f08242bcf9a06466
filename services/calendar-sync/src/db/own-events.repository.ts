import type { OAuthCalendarProvider } from '@app/contracts';
import type { Interval } from '../domain/busy-windows.js';
import type { OwnEvents } from '../domain/own-busy-time.js';
import type { Db } from './prisma.js';

/**
 * The own events of a schedule in the calendars of one provider that overlap `range` (design of issue 48): the
 * write-back's rows of that schedule, of connections of that provider, whose provider event may exist: an event id
 * is recorded, or the row is not settled (`synced` without an id means the event was deleted). Read through
 * calendar_writes_schedule_idx.
 */
export async function ownEventsOfSchedule(
  db: Db,
  scheduleId: string,
  provider: OAuthCalendarProvider,
  range: Interval,
): Promise<OwnEvents> {
  const rows = await db.calendarWrite.findMany({
    where: {
      scheduleId,
      connection: { provider },
      OR: [{ eventId: { not: null } }, { status: { not: 'synced' } }],
      startTime: { lt: range.end },
      endTime: { gt: range.start },
    },
    select: { calendarId: true, eventId: true, startTime: true, endTime: true },
  });
  return {
    scheduleId,
    events: rows.map((row) => ({ calendarId: row.calendarId, eventId: row.eventId, start: row.startTime, end: row.endTime })),
  };
}
