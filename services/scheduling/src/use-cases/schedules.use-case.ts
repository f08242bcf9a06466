import {
  scheduleCreatedEvent,
  scheduleDeactivatedEvent,
  scheduleUpdatedEvent,
  type CreateScheduleBody,
  type ListMeta,
  type ListSchedulesQuery,
  type PublicScheduleRecord,
  type ScheduleRecord,
  type UpdateScheduleBody,
} from '@app/contracts';
import {
  eventContextOf,
  isPublishable,
  listPage,
  lockedMatch,
  lockedRead,
  notFound,
  previousAttributes,
  recordEvent,
  recordId,
  requireMatch,
  type Caller,
  type IfMatch,
  type Versioned,
} from '@app/service-kit';
import {
  deactivateActiveSchedule,
  findSchedule,
  insertSchedule,
  listSchedules,
  SCHEDULE_LIST,
  updateSchedule,
} from '../db/schedule.repository.js';
import { publicScheduleRecord } from '../domain/schedule.record.js';
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

async function getSchedule(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<Versioned<ScheduleRecord>> {
  const schedule = await findSchedule(ctx.prisma, caller.organizationId, recordId(rawId, 'Schedule'));
  if (!schedule) throw notFound('Schedule');
  return schedule;
}

/**
 * `GET /api/v1/schedules/{id}` for any caller: a publishable key (a browser) sees only a schedule with
 * public_booking, and only its public fields; any other schedule is not found for it, so a private one is not even
 * confirmed to exist.
 */
export async function readSchedule(
  ctx: UseCaseContext,
  caller: Caller,
  rawId: string,
): Promise<Versioned<ScheduleRecord> | Versioned<PublicScheduleRecord>> {
  const schedule = await getSchedule(ctx, caller, rawId);
  if (!isPublishable(caller)) return schedule;
  if (!schedule.record.public_booking) throw notFound('Schedule');
  return { record: publicScheduleRecord(schedule.record), version: schedule.version };
}

export async function listOwnSchedules(
  ctx: UseCaseContext,
  caller: Caller,
  query: ListSchedulesQuery,
): Promise<{ items: ScheduleRecord[]; meta: ListMeta }> {
  const page = listPage(SCHEDULE_LIST, { organizationId: caller.organizationId, filters: { active: query.active } }, query);
  return listSchedules(ctx, caller.organizationId, { active: query.active }, page);
}

export async function changeSchedule(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, changes, ifMatch }: { id: string; changes: UpdateScheduleBody; ifMatch?: IfMatch | undefined },
): Promise<Versioned<ScheduleRecord>> {
  if (Object.keys(changes).length === 0) {
    // Nothing to change, nothing to publish; a stale If-Match is still refused.
    const current = await getSchedule(ctx, caller, rawId);
    requireMatch(ifMatch, { id: current.record.id, version: current.version });
    return current;
  }
  const id = recordId(rawId, 'Schedule');
  const schedule = await ctx.prisma.$transaction(async (tx) => {
    // Read under the row lock: a concurrent PATCH's change is what this one's previous_attributes start from.
    const target = { organizationId: caller.organizationId, id, ifMatch };
    const before = await lockedRead(tx, 'schedules', target, () => findSchedule(tx, caller.organizationId, id));
    const updated = before && (await updateSchedule(tx, caller.organizationId, id, changes, ctx.now()));
    if (before && updated) {
      const previous_attributes = previousAttributes(before.record, updated.record);
      await recordEvent(tx, scheduleUpdatedEvent, { ...updated.record, previous_attributes }, eventContextOf(caller));
    }
    return updated;
  });
  if (!schedule) throw notFound('Schedule');
  ctx.relay.wake();
  return schedule;
}

/**
 * DELETE deactivates: bookings keep referring to the schedule, slot generation answers 404. Deleting an
 * inactive schedule again is answered the same, without a second event.
 */
export async function deactivateSchedule(
  ctx: UseCaseContext,
  caller: Caller,
  { id: rawId, ifMatch }: { id: string; ifMatch?: IfMatch | undefined },
): Promise<{ id: string; deleted: true }> {
  const id = recordId(rawId, 'Schedule');
  const record = await ctx.prisma.$transaction(async (tx) => {
    if (!(await lockedMatch(tx, 'schedules', caller.organizationId, id, ifMatch))) return null;
    const deactivated = await deactivateActiveSchedule(tx, caller.organizationId, id, ctx.now());
    const current = (await findSchedule(tx, caller.organizationId, id))?.record ?? null;
    if (deactivated && current) await recordEvent(tx, scheduleDeactivatedEvent, current, eventContextOf(caller));
    return current;
  });
  if (!record) throw notFound('Schedule');
  ctx.relay.wake();
  return { id: record.id, deleted: true };
}
