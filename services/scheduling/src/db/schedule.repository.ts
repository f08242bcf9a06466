import type { CreateScheduleBody, ScheduleRecord, UpdateScheduleBody } from '@app/contracts';
import { sqlOf } from '@app/service-kit';
import { scheduleRecord } from '../domain/schedule.record.js';
import type { Db } from './prisma.js';

export interface ScheduleInput extends CreateScheduleBody {
  timezone: string;
}

export async function insertSchedule(db: Db, organizationId: string, input: ScheduleInput, now: Date): Promise<ScheduleRecord> {
  const row = await db.schedule.create({
    data: {
      organizationId,
      name: input.name,
      timezone: input.timezone,
      slotDuration: input.slot_duration,
      slotInterval: input.slot_interval ?? null,
      isActive: input.is_active,
      availability: input.availability,
      dateOverrides: input.date_overrides,
      bufferBefore: input.buffer_before,
      bufferAfter: input.buffer_after,
      minimumNotice: input.minimum_notice,
      createdAt: now,
      updatedAt: now,
    },
  });
  return scheduleRecord(row);
}

export async function findSchedule(db: Db, organizationId: string, id: string): Promise<ScheduleRecord | null> {
  const row = await db.schedule.findFirst({ where: { id, organizationId } });
  return row && scheduleRecord(row);
}

export async function listSchedules(
  db: Db,
  organizationId: string,
  page: { limit: number; offset: number; active?: boolean | undefined },
): Promise<{ records: ScheduleRecord[]; total: number }> {
  const where = { organizationId, ...(page.active === undefined ? {} : { isActive: page.active }) };
  const [rows, total] = await Promise.all([
    db.schedule.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: page.limit, skip: page.offset }),
    db.schedule.count({ where }),
  ]);
  return { records: rows.map(scheduleRecord), total };
}

/** A schedule of the organization under its row lock (until the transaction ends), as it is now; null when there is none. */
export async function lockSchedule(db: Db, organizationId: string, id: string): Promise<ScheduleRecord | null> {
  const { rows } = await sqlOf(db).query('SELECT id FROM schedules WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE', [
    id,
    organizationId,
  ]);
  return rows.length === 0 ? null : findSchedule(db, organizationId, id);
}

/** Applies a validated PATCH to a schedule of the organization, locking it; null when there is none. */
export async function updateSchedule(
  db: Db,
  organizationId: string,
  id: string,
  changes: UpdateScheduleBody,
  now: Date,
): Promise<ScheduleRecord | null> {
  const { count } = await db.schedule.updateMany({
    where: { id, organizationId },
    data: {
      name: changes.name,
      timezone: changes.timezone,
      slotDuration: changes.slot_duration,
      slotInterval: changes.slot_interval,
      isActive: changes.is_active,
      availability: changes.availability,
      dateOverrides: changes.date_overrides,
      bufferBefore: changes.buffer_before,
      bufferAfter: changes.buffer_after,
      minimumNotice: changes.minimum_notice,
      updatedAt: now,
    },
  });
  return count === 0 ? null : findSchedule(db, organizationId, id);
}

/** Deactivates an active schedule of the organization; false when there is none (or it is inactive already). */
export async function deactivateActiveSchedule(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  const { count } = await db.schedule.updateMany({
    where: { id, organizationId, isActive: true },
    data: { isActive: false, updatedAt: now },
  });
  return count === 1;
}
