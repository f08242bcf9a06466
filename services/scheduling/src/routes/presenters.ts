import type { ScheduleRecord } from '@app/contracts';
import type { Schedule } from '../generated/prisma/client.js';

/** The API record of a stored schedule (the stored JSON was validated by the contracts on the way in). */
export function presentSchedule(row: Schedule): ScheduleRecord {
  return {
    id: row.id,
    name: row.name,
    timezone: row.timezone,
    slot_duration: row.slotDuration,
    slot_interval: row.slotInterval ?? row.slotDuration,
    is_active: row.isActive,
    availability: row.availability as ScheduleRecord['availability'],
    date_overrides: row.dateOverrides as ScheduleRecord['date_overrides'],
    buffer_before: row.bufferBefore,
    buffer_after: row.bufferAfter,
    minimum_notice: row.minimumNotice,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
