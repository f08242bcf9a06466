import { isUuid } from '@app/contracts';
import { AppError, isAppError, scheduleNotFound } from '@app/service-kit';
import type { Availability } from '../clients/scheduling.client.js';
import type { UseCaseContext } from './context.js';

const UNAVAILABLE_MESSAGES = {
  outside_availability: "The requested time is outside the schedule's availability",
  minimum_notice: "The requested time is within the schedule's minimum notice",
  calendar_busy: 'The requested time overlaps a busy time of a connected calendar',
  beyond_horizon: "The requested time is beyond the schedule's booking horizon",
} as const;

export interface BookableSlot {
  organizationId: string;
  scheduleId: string;
  eventTypeId?: string | null;
  startTime: Date;
  endTime: Date;
}

/** What a booking learns of its schedule from the checks. */
export interface BookableSchedule {
  timezone: string;
  seatsPerSlot: number;
  maxBookingsPerDay: number | null;
  publicBooking: boolean;
  /** The local day of the start in the schedule's zone, as instants (the day limit counts starts in it). */
  day: { start: Date; end: Date };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function scheduleOf(answer: Availability, startTime: Date): BookableSchedule {
  // An older scheduling service sends no day: the UTC day of the start then.
  const utcDay = new Date(Date.UTC(startTime.getUTCFullYear(), startTime.getUTCMonth(), startTime.getUTCDate()));
  return {
    timezone: answer.timezone,
    seatsPerSlot: answer.seats_per_slot,
    maxBookingsPerDay: answer.max_bookings_per_day,
    publicBooking: answer.public_booking,
    day: {
      start: answer.day_start ? new Date(answer.day_start) : utcDay,
      end: answer.day_end ? new Date(answer.day_end) : new Date(utcDay.getTime() + DAY_MS),
    },
  };
}

/**
 * What the bookings service asks the scheduling and events services before it writes a booking: API.md's checks,
 * in its order: the schedule (exists, active, the caller's) → the event type, if given → the interval inside
 * availability and clear of calendar busy time. The availability check answers the schedule question too
 * (SCHEDULE_NOT_FOUND, else the schedule's zone), so two requests go out together, and their answers are judged in
 * that order: the first failing check is the one reported while the latency is one round trip. With `publicOnly` (a
 * publishable key), a schedule without public_booking is SCHEDULE_NOT_FOUND.
 */
export async function verifyBookable(
  ctx: Pick<UseCaseContext, 'scheduling' | 'events'>,
  slot: BookableSlot,
  requestId?: string,
  options: { publicOnly?: boolean } = {},
): Promise<BookableSchedule> {
  if (!isUuid(slot.scheduleId)) throw scheduleNotFound();
  const eventType = slot.eventTypeId ? ctx.events.requireEventType(slot.organizationId, slot.eventTypeId, requestId) : Promise.resolve();
  const availability = ctx.scheduling.checkAvailability(slot, requestId).then(
    (answer) => ({ answer, error: undefined }),
    (error: unknown) => ({ answer: undefined, error }),
  );
  // An earlier failure is reported; the later answer must not become an unhandled rejection.
  eventType.catch(() => undefined);

  const checked = await availability;
  if (isAppError(checked.error) && checked.error.code === 'SCHEDULE_NOT_FOUND') throw checked.error;
  // A publishable key books only public schedules; any other is as unknown to it as a missing one.
  if (options.publicOnly && checked.answer && !checked.answer.public_booking) throw scheduleNotFound();
  await eventType;
  if (!checked.answer) throw checked.error;
  if (!checked.answer.available) {
    const reason = checked.answer.reason;
    throw new AppError('SLOT_UNAVAILABLE', reason ? UNAVAILABLE_MESSAGES[reason] : 'The requested time is not available');
  }
  return scheduleOf(checked.answer, slot.startTime);
}
