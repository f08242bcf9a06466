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
 * minimum notice, and clear of calendar busy windows? Overlap with other bookings is the bookings
 * service's own check (its exclusion constraint), so it is not part of the answer.
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
    reason: z.enum(['outside_availability', 'minimum_notice', 'calendar_busy']).nullable(),
    /** The schedule's own zone: the one question a booking has of its schedule, answered in the same trip. */
    timezone: z.string(),
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
