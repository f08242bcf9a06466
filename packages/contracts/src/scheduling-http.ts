import { z } from 'zod';
import { nameString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';
import { listQuerySchema } from './pagination.js';
import { dayEndTimeSchema, localDateSchema, localTimeSchema, queryBooleanSchema, zoneNameSchema } from './scalars.js';
import { scheduleStateSchema, weekdaySchema, type Weekday } from './scheduling.js';
import { strictFields } from './strict.js';
import { EXAMPLE_SCHEDULE_ID } from './examples.js';

/*
 * HTTP bodies, queries and records of the scheduling service (schedules and slot generation).
 * Bodies are strict: an unknown field is a 400 naming it, so a typo never passes silently.
 */

const minutes = (min: number, max: number) =>
  z
    .number({ message: 'must be an integer number of minutes' })
    .int({ message: 'must be an integer number of minutes' })
    .min(min, { message: `must be from ${min} to ${max} minutes` })
    .max(max, { message: `must be from ${min} to ${max} minutes` });

const integerFrom = (min: number, max: number) =>
  z
    .number({ message: `must be an integer from ${min} to ${max}` })
    .int({ message: `must be an integer from ${min} to ${max}` })
    .min(min, { message: `must be an integer from ${min} to ${max}` })
    .max(max, { message: `must be an integer from ${min} to ${max}` });

/** Minutes since local midnight of `HH:MM` (`24:00` → 1440). */
export function minutesOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

interface TimeRange {
  start: string;
  end: string;
}

/** Reports reversed intervals and intervals overlapping another of the same group (touching is fine). */
function checkIntervals(
  ranges: TimeRange[],
  ctx: z.RefinementCtx,
  path: (index: number) => PropertyKey[],
  groupOf: (index: number) => string,
) {
  ranges.forEach((range, index) => {
    if (minutesOfDay(range.end) <= minutesOfDay(range.start)) {
      ctx.addIssue({ code: 'custom', message: 'must be after start', path: [...path(index), 'end'] });
      return;
    }
    const clash = ranges.findIndex(
      (other, j) =>
        j < index &&
        groupOf(j) === groupOf(index) &&
        minutesOfDay(other.start) < minutesOfDay(range.end) &&
        minutesOfDay(range.start) < minutesOfDay(other.end),
    );
    if (clash >= 0) ctx.addIssue({ code: 'custom', message: `overlaps interval ${clash}`, path: path(index) });
  });
}

const timeRangeShape = { start: localTimeSchema, end: dayEndTimeSchema };

/** Weekly hours: several `{day, start, end}` per day allowed; `end` may be `24:00`. */
export const availabilitySchema = z
  .array(z.strictObject({ day: weekdaySchema, ...timeRangeShape }, strictFields))
  .max(168, { message: 'must have at most 168 intervals' })
  .superRefine((rules, ctx) =>
    checkIntervals(
      rules,
      ctx,
      (i) => [i],
      (i) => rules[i]?.day ?? '',
    ),
  );

/** Replaces the weekly hours of one local date; no intervals = closed all day. */
export const dateOverridesSchema = z
  .array(
    z.strictObject(
      {
        date: localDateSchema,
        intervals: z
          .array(z.strictObject(timeRangeShape, strictFields))
          .max(48, { message: 'must have at most 48 intervals' })
          .superRefine((ranges, ctx) =>
            checkIntervals(
              ranges,
              ctx,
              (i) => [i],
              () => 'date',
            ),
          ),
      },
      strictFields,
    ),
  )
  .max(1000, { message: 'must have at most 1000 dates' })
  .superRefine((overrides, ctx) =>
    overrides.forEach((override, index) => {
      if (overrides.findIndex((other) => other.date === override.date) < index)
        ctx.addIssue({ code: 'custom', message: 'repeats an earlier date', path: [index, 'date'] });
    }),
  );

const WORKING_DAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
/** Mon–Fri 09:00–17:00. */
export const DEFAULT_AVAILABILITY = WORKING_DAYS.map((day) => ({ day, start: '09:00', end: '17:00' }));

const scheduleFields = {
  name: nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' }),
  timezone: zoneNameSchema,
  slot_duration: minutes(5, 1440),
  slot_interval: minutes(5, 1440),
  is_active: z.boolean({ message: 'must be true or false' }),
  availability: availabilitySchema,
  date_overrides: dateOverridesSchema,
  buffer_before: minutes(0, 1440),
  buffer_after: minutes(0, 1440),
  minimum_notice: minutes(0, 525_600),
  seats_per_slot: integerFrom(1, 1000),
  max_bookings_per_day: z
    .number({ message: 'must be an integer of at least 1, or null' })
    .int({ message: 'must be an integer of at least 1, or null' })
    .min(1, { message: 'must be an integer of at least 1, or null' })
    .nullable(),
  booking_horizon_days: integerFrom(1, 730).nullable(),
  public_booking: z.boolean({ message: 'must be true or false' }),
};

/** POST /api/v1/schedules (timezone defaults to the organization's; slot_interval to slot_duration). */
export const createScheduleBodySchema = z
  .strictObject(
    {
      ...scheduleFields,
      timezone: scheduleFields.timezone.optional(),
      slot_duration: scheduleFields.slot_duration.default(30),
      slot_interval: scheduleFields.slot_interval.optional(),
      is_active: scheduleFields.is_active.default(true),
      availability: scheduleFields.availability.default(DEFAULT_AVAILABILITY),
      date_overrides: scheduleFields.date_overrides.default([]),
      buffer_before: scheduleFields.buffer_before.default(0),
      buffer_after: scheduleFields.buffer_after.default(0),
      minimum_notice: scheduleFields.minimum_notice.default(0),
      seats_per_slot: scheduleFields.seats_per_slot.default(1),
      max_bookings_per_day: scheduleFields.max_bookings_per_day.default(null),
      booking_horizon_days: scheduleFields.booking_horizon_days.default(null),
      public_booking: scheduleFields.public_booking.default(false),
    },
    strictFields,
  )
  .meta({
    id: 'CreateScheduleBody',
    example: { name: 'Consultations', timezone: 'Europe/Berlin', slot_duration: 30, availability: DEFAULT_AVAILABILITY },
  });
export type CreateScheduleBody = z.infer<typeof createScheduleBodySchema>;

/** PATCH /api/v1/schedules/{id}: any field; arrays replace; `slot_interval: null` follows slot_duration again. */
export const updateScheduleBodySchema = z
  .strictObject(
    {
      name: scheduleFields.name.optional(),
      timezone: scheduleFields.timezone.optional(),
      slot_duration: scheduleFields.slot_duration.optional(),
      slot_interval: scheduleFields.slot_interval.nullable().optional(),
      is_active: scheduleFields.is_active.optional(),
      availability: scheduleFields.availability.optional(),
      date_overrides: scheduleFields.date_overrides.optional(),
      buffer_before: scheduleFields.buffer_before.optional(),
      buffer_after: scheduleFields.buffer_after.optional(),
      minimum_notice: scheduleFields.minimum_notice.optional(),
      seats_per_slot: scheduleFields.seats_per_slot.optional(),
      max_bookings_per_day: scheduleFields.max_bookings_per_day.optional(),
      booking_horizon_days: scheduleFields.booking_horizon_days.optional(),
      public_booking: scheduleFields.public_booking.optional(),
    },
    strictFields,
  )
  .meta({ id: 'UpdateScheduleBody', example: { buffer_after: 10, date_overrides: [{ date: '2030-12-24', intervals: [] }] } });
export type UpdateScheduleBody = z.infer<typeof updateScheduleBodySchema>;

export const scheduleRecordSchema = scheduleStateSchema.meta({ id: 'Schedule' });
export type ScheduleRecord = z.infer<typeof scheduleRecordSchema>;

/**
 * `GET /api/v1/schedules/{id}` with a publishable key (a booking page in a browser): a schedule with
 * `public_booking: true` only, and exactly these fields, so nothing of the back office reaches the browser.
 */
export const publicScheduleRecordSchema = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    timezone: z.string(),
    slot_duration: z.number().int(),
    seats_per_slot: z.number().int(),
  })
  .meta({
    id: 'PublicSchedule',
    description: 'A public schedule (public_booking: true) as a publishable key reads it: these fields only',
  });
export type PublicScheduleRecord = z.infer<typeof publicScheduleRecordSchema>;

/** GET /api/v1/schedules (`active` narrows to active or inactive ones; default all). */
export const listSchedulesQuerySchema = listQuerySchema({ active: queryBooleanSchema.optional() });
export type ListSchedulesQuery = z.infer<typeof listSchedulesQuerySchema>;
export const deletedScheduleSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** GET /api/bookings/slots: dates are local to `timezone` (default the schedule's); `endDate` is inclusive. */
export const slotsQuerySchema = z.object({
  scheduleId: nameString(TEXT_LIMITS.id, 'is required').meta({ example: EXAMPLE_SCHEDULE_ID }),
  startDate: localDateSchema.optional().meta({ example: '2030-01-07' }),
  endDate: localDateSchema.optional().meta({ example: '2030-01-11' }),
  timezone: zoneNameSchema.optional().meta({ example: 'Europe/Berlin' }),
  /** Slots as long as this event type's duration (an active event type of the schedule's organization). */
  eventTypeId: nameString(TEXT_LIMITS.id).optional(),
});
export type SlotsQuery = z.infer<typeof slotsQuerySchema>;

export const slotSchema = z.object({
  start: z.string(),
  end: z.string(),
  status: z.literal('available'),
  /** Local start `HH:MM` in the requested timezone. */
  label: z.string(),
  /** Seats still free over the whole slot (seats_per_slot less the most taken at any instant of it); at least 1. */
  seats_remaining: z.number().int().min(1),
});
export type Slot = z.infer<typeof slotSchema>;

export const slotDaySchema = z.object({ date: z.string(), slots: z.array(slotSchema) });
export type SlotDay = z.infer<typeof slotDaySchema>;

export const slotsResponseSchema = z
  .object({
    schedule: z.object({ id: z.uuid(), name: z.string(), timezone: z.string(), slotDuration: z.number().int() }),
    days: z.array(slotDaySchema),
  })
  .meta({ id: 'Slots' });
export type SlotsResponse = z.infer<typeof slotsResponseSchema>;
