import type { PublicScheduleRecord, ScheduleRecord } from '@app/contracts';

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
  seatsPerSlot: number;
  maxBookingsPerDay: number | null;
  bookingHorizonDays: number | null;
  publicBooking: boolean;
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
    seats_per_slot: row.seatsPerSlot,
    max_bookings_per_day: row.maxBookingsPerDay,
    booking_horizon_days: row.bookingHorizonDays,
    public_booking: row.publicBooking,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What a publishable key may see of a public schedule (API.md, Keys): these five fields and nothing else. */
export function publicScheduleRecord(record: ScheduleRecord): PublicScheduleRecord {
  return {
    id: record.id,
    name: record.name,
    timezone: record.timezone,
    slot_duration: record.slot_duration,
    seats_per_slot: record.seats_per_slot,
  };
}
