import type { ScheduleRecord } from '@app/contracts';

/** The fields of a stored schedule that its record shows; the JSON columns as stored. */
export interface ScheduleRecordSource {
  id: string;
  name: string;
  timezone: string;
  slotDuration: number;
  slotInterval: number | null;
  isActive: boolean;
  availability: unknown;
  dateOverrides: unknown;
  bufferBefore: number;
  bufferAfter: number;
  minimumNotice: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A schedule as the API shows it and as its change events carry it (the stored JSON was validated by the contracts on
 * the way in). The repository answers every schedule it reads in this shape.
 */
export function scheduleRecord(row: ScheduleRecordSource): ScheduleRecord {
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
