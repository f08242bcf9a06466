import {
  scheduleCreatedEvent,
  scheduleDeactivatedEvent,
  scheduleUpdatedEvent,
  type CreateScheduleBody,
  type ScheduleRecord,
  type UpdateScheduleBody,
  isUuid,
} from '@app/contracts';
import { notFound, recordEvent } from '@app/service-kit';
import { deactivateActiveSchedule, findSchedule, insertSchedule, listSchedules, updateSchedule } from '../db/schedule.repository.js';
import type { UseCaseContext } from './context.js';

export interface Caller {
  organizationId: string;
  /** Default zone of new schedules: the organization's. */
  timezone: string;
  requestId: string;
}

export async function createSchedule(body: CreateScheduleBody, caller: Caller, ctx: UseCaseContext): Promise<ScheduleRecord> {
  const input = { ...body, timezone: body.timezone ?? caller.timezone };
  const record = await ctx.prisma.$transaction(async (tx) => {
    const created = await insertSchedule(tx, caller.organizationId, input, ctx.now());
    await recordEvent(tx, scheduleCreatedEvent, created, eventContext(caller));
    return created;
  });
  ctx.relay.wake();
  return record;
}

export async function getSchedule(id: string, caller: Caller, ctx: UseCaseContext): Promise<ScheduleRecord> {
  const record = isUuid(id) ? await findSchedule(ctx.prisma, caller.organizationId, id) : null;
  if (!record) throw notFound('Schedule');
  return record;
}

export function listOwnSchedules(
  page: { limit: number; offset: number; active?: boolean | undefined },
  caller: Caller,
  ctx: UseCaseContext,
) {
  return listSchedules(ctx.prisma, caller.organizationId, page);
}

export async function changeSchedule(
  id: string,
  changes: UpdateScheduleBody,
  caller: Caller,
  ctx: UseCaseContext,
): Promise<ScheduleRecord> {
  if (Object.keys(changes).length === 0) return getSchedule(id, caller, ctx); // nothing to change, nothing to publish
  if (!isUuid(id)) throw notFound('Schedule');
  const record = await ctx.prisma.$transaction(async (tx) => {
    const updated = await updateSchedule(tx, caller.organizationId, id, changes, ctx.now());
    if (updated) await recordEvent(tx, scheduleUpdatedEvent, updated, eventContext(caller));
    return updated;
  });
  if (!record) throw notFound('Schedule');
  ctx.relay.wake();
  return record;
}

/**
 * DELETE deactivates: bookings keep referring to the schedule, slot generation answers 404. Deleting an
 * inactive schedule again is answered the same, without a second event.
 */
export async function deactivateSchedule(id: string, caller: Caller, ctx: UseCaseContext): Promise<{ id: string; deleted: true }> {
  if (!isUuid(id)) throw notFound('Schedule');
  const record = await ctx.prisma.$transaction(async (tx) => {
    const deactivated = await deactivateActiveSchedule(tx, caller.organizationId, id, ctx.now());
    const current = await findSchedule(tx, caller.organizationId, id);
    if (deactivated && current) await recordEvent(tx, scheduleDeactivatedEvent, current, eventContext(caller));
    return current;
  });
  if (!record) throw notFound('Schedule');
  ctx.relay.wake();
  return { id: record.id, deleted: true };
}

function eventContext(caller: Caller) {
  return { organizationId: caller.organizationId, correlationId: caller.requestId };
}
