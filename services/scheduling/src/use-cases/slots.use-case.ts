import type { SlotsQuery, SlotsResponse } from '@app/contracts';
import { invalidInput, notFound, recordId, scheduleNotFound, type AppError, type Caller } from '@app/service-kit';
import { loadScheduleWithBusyTime, type ScheduleWithBusyTime } from '../db/busy-time.repository.js';
import type { ScheduleRules } from '../domain/availability.js';
import { fullDays } from '../domain/day-limit.js';
import { explicitRangeProblem, fetchWindow, resolveRange } from '../domain/slot-range.js';
import { generateSlots } from '../domain/slots.js';
import { DAY_MS, Zone } from '../domain/time.js';
import type { UseCaseContext } from './context.js';

/**
 * The slots of an active schedule over a range of local dates. `caller` is null for anonymous
 * callers (a public booking page); with one, another organization's schedule is not found either.
 */
export async function findSlots(ctx: UseCaseContext, caller: Caller | null, query: SlotsQuery): Promise<SlotsResponse> {
  const problem = explicitRangeProblem(query);
  if (problem) throw invalidRange(problem);
  const scheduleId = recordId(query.scheduleId, scheduleNotFound);
  const eventTypeId = query.eventTypeId === undefined ? undefined : recordId(query.eventTypeId, 'Event type');
  const now = ctx.now().getTime();
  const schedule = await loadScheduleWithBusyTime(ctx.pool, {
    scheduleId,
    organizationId: caller?.organizationId ?? null,
    window: fetchWindow(query, now),
    bookingsAt: now,
    eventTypeId,
  });
  if (!schedule) throw scheduleNotFound();
  if (eventTypeId !== undefined && schedule.eventTypeDuration === null) throw notFound('Event type');
  const timezone = query.timezone ?? schedule.rules.timezone;
  const range = resolveRange(query, Zone.of(timezone), now);
  if (!range.ok) throw invalidRange(range.message);
  const rules = slotRules(schedule);
  const { seatsPerSlot, maxBookingsPerDay, bookingHorizonDays } = schedule.limits;
  // One seat: any booking or hold fills its slots, so they join the blockers and the sweep is the one-seat one.
  const oneSeat = seatsPerSlot === 1;
  const days = generateSlots({
    now,
    rules,
    blockers: oneSeat ? [...schedule.blockers, ...schedule.takers] : schedule.blockers,
    seats: oneSeat ? undefined : { perSlot: seatsPerSlot, takers: schedule.takers },
    fullDays: maxBookingsPerDay === null ? undefined : fullDays(schedule.takers, Zone.of(rules.timezone), maxBookingsPerDay),
    latestStart: bookingHorizonDays === null ? undefined : now + bookingHorizonDays * DAY_MS,
    timezone,
    startDate: range.startDate,
    endDate: range.endDate,
  });
  return {
    schedule: { id: schedule.id, name: schedule.name, timezone: rules.timezone, slotDuration: rules.slotDuration },
    days,
  };
}

/**
 * An event type's slots are as long as its duration and step by the schedule's slot_interval when that was set
 * explicitly, else by the duration (a schedule's default step follows the slot length, whichever it is).
 */
function slotRules(schedule: ScheduleWithBusyTime): ScheduleRules {
  const duration = schedule.eventTypeDuration;
  if (duration === null) return schedule.rules;
  return { ...schedule.rules, slotDuration: duration, slotInterval: schedule.limits.intervalSet ? schedule.rules.slotInterval : duration };
}

function invalidRange(message: string): AppError {
  return invalidInput(message.split(' ')[0] ?? 'endDate', message);
}
