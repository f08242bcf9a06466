import type { SlotsQuery, SlotsResponse } from '@app/contracts';
import { invalidInput, recordId, scheduleNotFound, type AppError, type Caller } from '@app/service-kit';
import { loadScheduleWithBusyTime } from '../db/busy-time.repository.js';
import { explicitRangeProblem, fetchWindow, resolveRange } from '../domain/slot-range.js';
import { generateSlots } from '../domain/slots.js';
import { Zone } from '../domain/time.js';
import type { UseCaseContext } from './context.js';

/**
 * The slots of an active schedule over a range of local dates. `caller` is null for anonymous
 * callers (a public booking page); with one, another organization's schedule is not found either.
 */
export async function findSlots(ctx: UseCaseContext, caller: Caller | null, query: SlotsQuery): Promise<SlotsResponse> {
  const problem = explicitRangeProblem(query);
  if (problem) throw invalidRange(problem);
  const scheduleId = recordId(query.scheduleId, scheduleNotFound);
  const now = ctx.now().getTime();
  const schedule = await loadScheduleWithBusyTime(ctx.pool, {
    scheduleId,
    organizationId: caller?.organizationId ?? null,
    window: fetchWindow(query, now),
    includeBookings: true,
  });
  if (!schedule) throw scheduleNotFound();
  const timezone = query.timezone ?? schedule.rules.timezone;
  const range = resolveRange(query, Zone.of(timezone), now);
  if (!range.ok) throw invalidRange(range.message);
  const days = generateSlots({
    now,
    rules: schedule.rules,
    blockers: schedule.blockers,
    timezone,
    startDate: range.startDate,
    endDate: range.endDate,
  });
  return {
    schedule: { id: schedule.id, name: schedule.name, timezone: schedule.rules.timezone, slotDuration: schedule.rules.slotDuration },
    days,
  };
}

function invalidRange(message: string): AppError {
  return invalidInput(message.split(' ')[0] ?? 'endDate', message);
}
