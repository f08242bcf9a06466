import {
  scheduleCreatedEvent,
  scheduleDeactivatedEvent,
  scheduleUpdatedEvent,
  listMeta,
  type CreateScheduleBody,
  type ListMeta,
  type ScheduleRecord,
  type UpdateScheduleBody,
} from '@app/contracts';
import { eventContextOf, notFound, previousAttributes, recordEvent, recordId, type Caller } from '@app/service-kit';
import {
  deactivateActiveSchedule,
  findSchedule,
  insertSchedule,
  listSchedules,
  lockSchedule,
  updateSchedule,
} from '../db/schedule.repository.js';
import type { UseCaseContext } from './context.js';

/** A new schedule is in the organization's default zone unless the body names one. */
export async function createSchedule(ctx: UseCaseContext, caller: Caller, body: CreateScheduleBody): Promise<ScheduleRecord> {
  const input = { ...body, timezone: body.timezone ?? caller.timezone };
  const record = await ctx.prisma.$transaction(async (tx) => {
    const created = await insertSchedule(tx, caller.organizationId, input, ctx.now());
    await recordEvent(tx, scheduleCreatedEvent, created, eventContextOf(caller));
    return created;
  });
  ctx.relay.wake();
  return record;
}

export async function getSchedule(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<ScheduleRecord> {
  const record = await findSchedule(ctx.prisma, caller.organizationId, recordId(rawId, 'Schedule'));
  if (!record) throw notFound('Schedule');
  return record;
}

export async function listOwnSchedules(
  ctx: UseCaseContext,
  caller: Caller,
  page: { limit: number; offset: number; active?: boolean | undefined },
): Promise<{ items: ScheduleRecord[]; meta: ListMeta }> {
  const { records, total } = await listSchedules(ctx.prisma, caller.organizationId, page);
  return { items: records, meta: listMeta(total, page.limit, page.offset) };
}

export async function changeSchedule(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, changes }: { id: string; changes: UpdateScheduleBody },
): Promise<ScheduleRecord> {
  if (Object.keys(changes).length === 0) return getSchedule(ctx, caller, rawId); // nothing to change, nothing to publish
  const id = recordId(rawId, 'Schedule');
  const record = await ctx.prisma.$transaction(async (tx) => {
    // Read under the row lock: a concurrent PATCH's change is what this one's previous_attributes start from.
    const before = await lockSchedule(tx, caller.organizationId, id);
    const updated = before && (await updateSchedule(tx, caller.organizationId, id, changes, ctx.now()));
    if (before && updated) {
      await recordEvent(
        tx,
        scheduleUpdatedEvent,
        { ...updated, previous_attributes: previousAttributes(before, updated) },
        eventContextOf(caller),
      );
    }
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
export async function deactivateSchedule(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, 'Schedule');
  const record = await ctx.prisma.$transaction(async (tx) => {
    const deactivated = await deactivateActiveSchedule(tx, caller.organizationId, id, ctx.now());
    const current = await findSchedule(tx, caller.organizationId, id);
    if (deactivated && current) await recordEvent(tx, scheduleDeactivatedEvent, current, eventContextOf(caller));
    return current;
  });
  if (!record) throw notFound('Schedule');
  ctx.relay.wake();
  return { id: record.id, deleted: true };
}
