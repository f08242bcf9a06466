import type { availabilityCheckRequest, scheduleGetRequest } from '@app/contracts';
import type { z } from 'zod';
import { loadScheduleWithBusyTime } from '../db/busy-time.repository.js';
import { findSchedule } from '../db/schedule.repository.js';
import { whyUnavailable } from '../domain/availability-check.js';
import { localDayOf } from '../domain/day-limit.js';
import { DAY_MS, Zone } from '../domain/time.js';
import type { UseCaseContext } from './context.js';
import { recordId, scheduleNotFound, type Caller } from '@app/service-kit';

type ScheduleGet = z.output<typeof scheduleGetRequest.request>;
type ScheduleGetReply = z.input<typeof scheduleGetRequest.reply>;
type AvailabilityCheck = z.output<typeof availabilityCheckRequest.request>;
type AvailabilityCheckReply = z.input<typeof availabilityCheckRequest.reply>;

/** `scheduling.schedule.get`: an active schedule of the organization, else SCHEDULE_NOT_FOUND. */
export async function activeSchedule(ctx: UseCaseContext, caller: Caller, request: ScheduleGet): Promise<ScheduleGetReply> {
  const schedule = (await findSchedule(ctx.prisma, caller.organizationId, recordId(request.schedule_id, scheduleNotFound)))?.record;
  if (!schedule?.is_active) throw scheduleNotFound();
  return {
    id: schedule.id,
    name: schedule.name,
    timezone: schedule.timezone,
    slot_duration: schedule.slot_duration,
    buffer_before: schedule.buffer_before,
    buffer_after: schedule.buffer_after,
    is_active: schedule.is_active,
  };
}

/**
 * `scheduling.availability.check`: is [start, end) inside the schedule's hours, past its minimum notice, within its
 * booking horizon and clear of calendar busy time (with buffers)? With the answer go the schedule's seats, day limit and
 * public_booking, and the local day of start (for the day limit). Other bookings are the bookings service's own check. An
 * unknown, inactive or foreign schedule is SCHEDULE_NOT_FOUND, so this one request also answers
 * `scheduling.schedule.get`'s question for a booking.
 */
export async function checkAvailability(ctx: UseCaseContext, caller: Caller, request: AvailabilityCheck): Promise<AvailabilityCheckReply> {
  const start = Date.parse(request.start_time);
  const end = Date.parse(request.end_time);
  // Buffers are at most a day, so busy time further than a day from the interval cannot touch it.
  const schedule = await loadScheduleWithBusyTime(ctx.pool, {
    scheduleId: request.schedule_id,
    organizationId: caller.organizationId,
    window: { start: start - DAY_MS, end: Math.max(end, start) + DAY_MS },
    bookingsAt: null,
  });
  if (!schedule) throw scheduleNotFound();
  const { limits, rules } = schedule;
  const now = ctx.now().getTime();
  const reason = whyUnavailable({ now, rules, busy: schedule.blockers, start, end, horizonDays: limits.bookingHorizonDays });
  // What the bookings service's guard needs for seats and the day limit, in the same trip.
  const day = localDayOf(start, Zone.of(rules.timezone));
  return {
    available: reason === null,
    reason,
    timezone: rules.timezone,
    seats_per_slot: limits.seatsPerSlot,
    max_bookings_per_day: limits.maxBookingsPerDay,
    public_booking: limits.publicBooking,
    day_start: new Date(day.start).toISOString(),
    day_end: new Date(day.end).toISOString(),
  };
}
