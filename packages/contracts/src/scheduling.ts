import { z } from 'zod';
import { defineEvent, defineRequest, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';

/** `scheduling.schedule.get`: the schedule if it exists, is active and belongs to the organization; else SCHEDULE_NOT_FOUND. */
export const scheduleGetRequest = defineRequest(
  'scheduling.schedule.get',
  z.object({ organization_id: z.uuid(), schedule_id: z.string() }),
  z.object({
    id: z.uuid(),
    name: z.string(),
    timezone: z.string(),
    slot_duration: z.number().int(),
    buffer_before: z.number().int(),
    buffer_after: z.number().int(),
    is_active: z.boolean(),
  }),
);

/**
 * `scheduling.availability.check`: is [start_time, end_time) inside the schedule's availability, past its
 * minimum notice, within its booking horizon, and clear of calendar busy windows? Seats taken by other bookings and
 * holds, and the day limit, are the bookings service's own check (its database guard), so the answer carries what that
 * guard needs: the schedule's seats and day limit, and the local day of start_time as UTC instants
 * [day_start, day_end) (DST-correct: a local day is 23, 24 or 25 hours). The new fields have defaults, so a bookings
 * service reads the answer of a scheduling service older than them as a one-seat, unlimited, private schedule.
 */
export const availabilityCheckRequest = defineRequest(
  'scheduling.availability.check',
  z.object({
    organization_id: z.uuid(),
    schedule_id: z.uuid(),
    start_time: z.iso.datetime({ offset: true }),
    end_time: z.iso.datetime({ offset: true }),
  }),
  z.object({
    available: z.boolean(),
    reason: z.enum(['outside_availability', 'minimum_notice', 'calendar_busy', 'beyond_horizon']).nullable(),
    /** The schedule's own zone: the one question a booking has of its schedule, answered in the same trip. */
    timezone: z.string(),
    seats_per_slot: z.number().int().min(1).default(1),
    max_bookings_per_day: z.number().int().min(1).nullable().default(null),
    public_booking: z.boolean().default(false),
    /** The local day of start_time in the schedule's zone, as UTC instants; null from an older scheduling service. */
    day_start: z.iso.datetime().nullable().default(null),
    day_end: z.iso.datetime().nullable().default(null),
  }),
);

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const weekdaySchema = z.enum(WEEKDAYS, { message: `must be one of ${WEEKDAYS.join(', ')}` });
export type Weekday = z.infer<typeof weekdaySchema>;

/** A schedule as the scheduling service holds it; the payload of its domain events (and its HTTP record). */
export const scheduleStateSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  timezone: z.string(),
  slot_duration: z.number().int(),
  slot_interval: z.number().int(),
  is_active: z.boolean(),
  availability: z.array(z.object({ day: weekdaySchema, start: z.string(), end: z.string() })),
  date_overrides: z.array(z.object({ date: z.string(), intervals: z.array(z.object({ start: z.string(), end: z.string() })) })),
  buffer_before: z.number().int(),
  buffer_after: z.number().int(),
  minimum_notice: z.number().int(),
  // Defaults: an event written before these fields reads as a one-seat, unlimited, private schedule (not breaking).
  seats_per_slot: z.number().int().default(1),
  max_bookings_per_day: z.number().int().nullable().default(null),
  booking_horizon_days: z.number().int().nullable().default(null),
  public_booking: z.boolean().default(false),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ScheduleState = z.infer<typeof scheduleStateSchema>;

export const scheduleCreatedEvent = defineEvent('scheduling.schedule.created', scheduleStateSchema);
export const scheduleUpdatedEvent = defineEvent(
  'scheduling.schedule.updated',
  scheduleStateSchema.extend({ previous_attributes: previousAttributesSchema }),
);
/** DELETE deactivates: the schedule stays (bookings refer to it) but offers no slots. */
export const scheduleDeactivatedEvent = defineEvent('scheduling.schedule.deactivated', scheduleStateSchema);

export const SCHEDULING_EVENTS = [scheduleCreatedEvent, scheduleUpdatedEvent, scheduleDeactivatedEvent] as const;
export const SCHEDULING_STREAM = defineStream('SCHEDULING', SCHEDULING_EVENTS);
