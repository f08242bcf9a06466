import { z } from 'zod';
import { bookingStatusSchema } from './booking-status.js';
import { bookingCalendarEventSchema } from './calendar.js';
import { locationTypeSchema } from './location-type.js';
import { listQuerySchema } from './pagination.js';
import { instantSchema, localDateSchema, queryBooleanSchema, uuidSchema, zoneNameSchema } from './scalars.js';
import { strictFields } from './strict.js';
import { EXAMPLE_SCHEDULE_ID } from './examples.js';
import { metadataSchema } from './metadata.js';
import { emailString, nameString, proseString, type TextKind } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';

const text = (max: number, kind: TextKind = 'text') => (kind === 'name' ? nameString(max) : proseString(max)).trim();
const requiredText = (max: number) => text(max, 'name').min(1, { message: 'must not be empty' });

/** Free-form JSON object attached to a booking (metadata.ts: at most 16 KB as JSON); an array or a scalar is refused. */
export const bookingMetadataSchema = metadataSchema;

export const attendeeInputSchema = z.strictObject(
  {
    name: requiredText(TEXT_LIMITS.name),
    email: emailString(TEXT_LIMITS.email),
    phone: text(TEXT_LIMITS.phone, 'name').nullish(),
    timezone: zoneNameSchema.nullish(),
    notes: text(TEXT_LIMITS.description).nullish(),
  },
  strictFields,
);

function endAfterStart(value: { start_time?: unknown; end_time?: unknown }, ctx: z.RefinementCtx): void {
  // Runs even when a field failed (zod keeps refining): only compare two parsed instants.
  const { start_time: start, end_time: end } = value;
  if (start instanceof Date && end instanceof Date && end.getTime() <= start.getTime()) {
    ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'must be after start_time' });
  }
}

/** Seats a booking or hold takes: 1..1000 here; at most the schedule's seats_per_slot (checked against its answer). */
const seatsSchema = z
  .number({ message: 'must be an integer from 1 to 1000' })
  .int({ message: 'must be an integer from 1 to 1000' })
  .min(1, { message: 'must be an integer from 1 to 1000' })
  .max(1000, { message: 'must be an integer from 1 to 1000' });

/** The fields of a booking body (POST /api/v1/bookings and each occurrence of POST /api/v1/booking-series). */
const bookingBodyFields = {
  // Any string: an unknown or malformed schedule is a 404 SCHEDULE_NOT_FOUND, not a validation error.
  schedule_id: requiredText(TEXT_LIMITS.id),
  start_time: instantSchema,
  end_time: instantSchema,
  attendee: attendeeInputSchema,
  event_type_id: requiredText(TEXT_LIMITS.id).nullish(),
  timezone: zoneNameSchema.nullish(),
  title: text(TEXT_LIMITS.title, 'name').nullish(),
  location: text(TEXT_LIMITS.location).nullish(),
  location_type: locationTypeSchema.nullish(),
  metadata: bookingMetadataSchema.nullish(),
  seats: seatsSchema.optional(),
};

/** POST /api/v1/bookings */
export const createBookingBodySchema = z
  .strictObject(
    {
      ...bookingBodyFields,
      /** A hold of the same schedule, interval and seats: the booking takes its place (409 HOLD_INVALID otherwise). */
      hold_id: requiredText(TEXT_LIMITS.id).nullish(),
    },
    strictFields,
  )
  .superRefine(endAfterStart)
  .meta({
    id: 'CreateBookingBody',
    example: {
      schedule_id: EXAMPLE_SCHEDULE_ID,
      start_time: '2030-01-07T09:00:00+01:00',
      end_time: '2030-01-07T09:30:00+01:00',
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com', timezone: 'Europe/London' },
      title: 'Intro call',
    },
  });
export type CreateBookingBody = z.output<typeof createBookingBodySchema>;

/** PATCH /api/v1/bookings/{id}: a status move, detail changes, and/or a reschedule (start_time with end_time). */
export const updateBookingBodySchema = z
  .strictObject(
    {
      status: bookingStatusSchema.optional(),
      metadata: bookingMetadataSchema.nullable().optional(),
      title: text(TEXT_LIMITS.title, 'name').nullable().optional(),
      location: text(TEXT_LIMITS.location).nullable().optional(),
      location_type: locationTypeSchema.nullable().optional(),
      start_time: instantSchema.optional(),
      end_time: instantSchema.optional(),
    },
    strictFields,
  )
  .superRefine((value, ctx) => {
    if ((value.start_time === undefined) !== (value.end_time === undefined)) {
      const missing = value.start_time === undefined ? 'start_time' : 'end_time';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'start_time and end_time must be given together' });
    }
    endAfterStart(value, ctx);
  })
  .meta({ id: 'UpdateBookingBody', example: { status: 'CONFIRMED' } });
export type UpdateBookingBody = z.output<typeof updateBookingBodySchema>;

const DATE_OR_INSTANT = 'must be a date YYYY-MM-DD or an ISO 8601 timestamp with an offset';
const dateOrInstantSchema = nameString(64, DATE_OR_INSTANT).refine(
  (value) => localDateSchema.safeParse(value).success || instantSchema.safeParse(value).success,
  { message: DATE_OR_INSTANT },
);

/** GET /api/v1/bookings: `start_date`/`end_date` take a UTC day (end inclusive) or an exact instant. */
export const listBookingsQuerySchema = listQuerySchema({
  schedule_id: uuidSchema.optional(),
  event_type_id: uuidSchema.optional(),
  status: bookingStatusSchema.optional(),
  upcoming: queryBooleanSchema.optional(),
  start_date: dateOrInstantSchema.optional(),
  end_date: dateOrInstantSchema.optional(),
  attendee_email: nameString(TEXT_LIMITS.email).optional(),
});
export type ListBookingsQuery = z.output<typeof listBookingsQuerySchema>;

/**
 * The provider event calendar-sync keeps for the booking (write-back, API.md "Calendar write-back"), as the booking
 * record shows it: with several writing connections, the one of the oldest. A projection of calendar-sync's events: it
 * changes neither the booking's `updated_at` nor its version.
 */
export const bookingCalendarEventRecordSchema = bookingCalendarEventSchema
  .pick({ connection_id: true, provider: true, event_id: true, status: true, last_error: true })
  .meta({ id: 'BookingCalendarEvent' });
export type BookingCalendarEventRecord = z.infer<typeof bookingCalendarEventRecordSchema>;

/** A booking as every booking endpoint returns it. */
export const bookingRecordSchema = z
  .object({
    id: z.uuid(),
    schedule_id: z.uuid(),
    event_type_id: z.uuid().nullable(),
    start_time: z.string(),
    end_time: z.string(),
    status: bookingStatusSchema,
    title: z.string().nullable(),
    timezone: z.string().nullable(),
    location: z.string().nullable(),
    location_type: locationTypeSchema.nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    attendee: z.object({
      name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      timezone: z.string().nullable(),
      notes: z.string().nullable(),
    }),
    attendee_name: z.string(),
    attendee_email: z.string(),
    cancelled: z.boolean(),
    // Always sent by the API; optional in the schema only because events written before seats and series (still in
    // streams, schema_version 1) carry records without them. A schema_version 2 of the booking events can require them.
    seats: z.number().int().min(1).optional(),
    /** The series (POST /api/v1/booking-series) the booking is an occurrence of, else null. */
    series_id: z.uuid().nullable().optional(),
    /** Its event in its host's calendar (write-back), else null. Always sent; optional for the reason seats is. */
    calendar_event: bookingCalendarEventRecordSchema.nullable().optional(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Booking' });
export type BookingRecord = z.infer<typeof bookingRecordSchema>;

/** The 201 of a booking's creation: the record and, only here, its `client_secret` (stored as a hash). */
export const createdBookingSchema = bookingRecordSchema
  .extend({ client_secret: z.string().describe('Lets its attendee read, reschedule or cancel it through a publishable key; shown once') })
  .meta({ id: 'CreatedBooking' });
export type CreatedBooking = z.infer<typeof createdBookingSchema>;

/** POST /api/v1/booking-series: a booking body with `timezone` required, repeated by `recurrence`. */
export const createBookingSeriesBodySchema = z
  .strictObject(
    {
      ...bookingBodyFields,
      timezone: zoneNameSchema,
      recurrence: z.strictObject(
        {
          frequency: z.enum(['daily', 'weekly'], { message: 'must be one of daily, weekly' }),
          interval: z
            .number({ message: 'must be an integer from 1 to 12' })
            .int({ message: 'must be an integer from 1 to 12' })
            .min(1, { message: 'must be an integer from 1 to 12' })
            .max(12, { message: 'must be an integer from 1 to 12' })
            .default(1),
          count: z
            .number({ message: 'must be an integer from 2 to 52' })
            .int({ message: 'must be an integer from 2 to 52' })
            .min(2, { message: 'must be an integer from 2 to 52' })
            .max(52, { message: 'must be an integer from 2 to 52' }),
        },
        strictFields,
      ),
    },
    strictFields,
  )
  .superRefine(endAfterStart)
  .meta({
    id: 'CreateBookingSeriesBody',
    example: {
      schedule_id: EXAMPLE_SCHEDULE_ID,
      start_time: '2030-01-07T09:00:00+01:00',
      end_time: '2030-01-07T09:30:00+01:00',
      timezone: 'Europe/Berlin',
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
      recurrence: { frequency: 'weekly', count: 4 },
    },
  });
export type CreateBookingSeriesBody = z.output<typeof createBookingSeriesBodySchema>;

/** A series as its 201 and GET show it: its bookings in order (each with `client_secret` in the 201 only). */
export const bookingSeriesRecordSchema = z
  .object({ id: z.uuid(), bookings: z.array(bookingRecordSchema.extend({ client_secret: z.string().optional() })) })
  .meta({ id: 'BookingSeries' });
export type BookingSeriesRecord = z.infer<typeof bookingSeriesRecordSchema>;

/** DELETE /api/v1/booking-series/{id}: how many of its occurrences it cancelled. */
export const bookingSeriesCancelledSchema = z
  .object({ id: z.uuid(), cancelled: z.number().int().min(0) })
  .meta({ id: 'BookingSeriesCancelled' });

/** POST /api/v1/holds */
export const createHoldBodySchema = z
  .strictObject(
    {
      schedule_id: requiredText(TEXT_LIMITS.id),
      start_time: instantSchema,
      end_time: instantSchema,
      seats: seatsSchema.default(1),
      ttl_seconds: z
        .number({ message: 'must be an integer from 30 to 3600' })
        .int({ message: 'must be an integer from 30 to 3600' })
        .min(30, { message: 'must be an integer from 30 to 3600' })
        .max(3600, { message: 'must be an integer from 30 to 3600' })
        .default(600),
    },
    strictFields,
  )
  .superRefine(endAfterStart)
  .meta({
    id: 'CreateHoldBody',
    example: { schedule_id: EXAMPLE_SCHEDULE_ID, start_time: '2030-01-07T09:00:00+01:00', end_time: '2030-01-07T09:30:00+01:00' },
  });
export type CreateHoldBody = z.output<typeof createHoldBodySchema>;

/** A hold as its routes show it; `status` is judged at read time (past expires_at it is `expired`, at once). */
export const holdRecordSchema = z
  .object({
    id: z.uuid(),
    schedule_id: z.uuid(),
    start_time: z.string(),
    end_time: z.string(),
    seats: z.number().int().min(1),
    status: z.enum(['active', 'released', 'expired', 'used']),
    expires_at: z.string(),
    booking_id: z.uuid().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Hold' });
export type HoldRecord = z.infer<typeof holdRecordSchema>;
