import type { CreateScheduleBody, ListMeta, ScheduleRecord, UpdateScheduleBody } from '@app/contracts';
import { inPageOrder, pageOfIds, SqlParams, type ListDefinition, type ListPage, type Queryable, type Versioned } from '@app/service-kit';
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
      seatsPerSlot: input.seats_per_slot,
      maxBookingsPerDay: input.max_bookings_per_day,
      bookingHorizonDays: input.booking_horizon_days,
      publicBooking: input.public_booking,
      createdAt: now,
      updatedAt: now,
    },
  });
  return scheduleRecord(row);
}

/** A schedule of the organization with the version of its row (its ETag's); null when there is none. */
export async function findSchedule(db: Db, organizationId: string, id: string): Promise<Versioned<ScheduleRecord> | null> {
  const row = await db.schedule.findFirst({ where: { id, organizationId } });
  return row && { record: scheduleRecord(row), version: row.version };
}

/** Oldest first, then by id: served by schedules_organization_idx (organization, created_at, id). */
export const SCHEDULE_LIST: ListDefinition = {
  name: 'schedules',
  order: {
    keys: [
      { column: 'created_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
    direction: 'ASC',
  },
};

/** One page of the organization's schedules (the page's ids and meta in one statement, then the rows by Prisma). */
export async function listSchedules(
  db: { pool: Queryable; prisma: Db },
  organizationId: string,
  filter: { active?: boolean | undefined },
  page: ListPage,
): Promise<{ items: ScheduleRecord[]; meta: ListMeta }> {
  const params = new SqlParams();
  const conditions = [`t.organization_id = ${params.add(organizationId)}::uuid`];
  if (filter.active !== undefined) conditions.push(`t.is_active = ${params.add(filter.active)}`);
  const { ids, meta } = await pageOfIds(db.pool, page, { table: 'schedules', conditions, params });
  const rows = await db.prisma.schedule.findMany({ where: { organizationId, id: { in: ids } } });
  return { items: inPageOrder(ids, rows).map(scheduleRecord), meta };
}

/** Applies a validated PATCH to a schedule of the organization, locking it; null when there is none. */
export async function updateSchedule(
  db: Db,
  organizationId: string,
  id: string,
  changes: UpdateScheduleBody,
  now: Date,
): Promise<Versioned<ScheduleRecord> | null> {
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
      seatsPerSlot: changes.seats_per_slot,
      maxBookingsPerDay: changes.max_bookings_per_day,
      bookingHorizonDays: changes.booking_horizon_days,
      publicBooking: changes.public_booking,
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
