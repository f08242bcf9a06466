import { z } from 'zod';
import {
  eventQuestionRecordSchema,
  eventQuestionsSchema,
  registrationAnswersRecordSchema,
  registrationAnswersSchema,
} from './event-questions.js';
import { allOptional, eventDeletionSchema, optionalText, text, titleText } from './events-http-fields.js';
import { strictFields } from './strict.js';
import { listQuerySchema } from './pagination.js';
import { dollarsSchema, uuidSchema, localDateSchema, localTimeSchema, queryBooleanSchema, zoneNameSchema } from './scalars.js';
import { emailString, nameString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';

/** HTTP bodies, queries and records of events and their registrations (events service). */

export const EVENT_STATUSES = ['draft', 'published', 'cancelled'] as const;
export const eventStatusSchema = z.enum(EVENT_STATUSES, { message: `must be one of ${EVENT_STATUSES.join(', ')}` });
export type EventStatus = z.infer<typeof eventStatusSchema>;

const eventFields = {
  title: titleText,
  start_date: localDateSchema,
  description: optionalText(TEXT_LIMITS.description).nullable(),
  start_time: localTimeSchema.nullable(),
  end_time: localTimeSchema.nullable(),
  timezone: zoneNameSchema,
  location: optionalText(TEXT_LIMITS.eventLocation).nullable(),
  cost: dollarsSchema,
  slots: z
    .number()
    .int({ message: 'must be an integer' })
    .min(0, { message: 'must not be negative' })
    .max(1_000_000, { message: 'must be at most 1000000' })
    .nullable(),
  status: eventStatusSchema,
  site_id: text(TEXT_LIMITS.id).nullable(),
  /** A registration that would be refused EVENT_FULL or SOLD_OUT is waitlisted instead. */
  waitlist: z.boolean({ message: 'must be a boolean' }),
  /** Replaced whole by a PATCH; registrations made before keep their answers as given. */
  questions: eventQuestionsSchema,
};

/** POST /api/v1/events */
export const createEventBodySchema = z
  .strictObject({ ...allOptional(eventFields), title: eventFields.title, start_date: eventFields.start_date }, strictFields)
  .meta({
    id: 'CreateEventBody',
    example: {
      title: 'Pottery workshop',
      start_date: '2030-03-02',
      start_time: '10:00',
      end_time: '13:00',
      timezone: 'Europe/Berlin',
      location: 'Studio 4',
      cost: 45,
      slots: 12,
      status: 'published',
    },
  });
export type CreateEventBody = z.infer<typeof createEventBodySchema>;

/** PATCH /api/v1/events/{id}: any field; `null` clears an optional one. */
export const updateEventBodySchema = z
  .strictObject(allOptional(eventFields), strictFields)
  .meta({ id: 'UpdateEventBody', example: { slots: 16, cost: 49.5 } });
export type UpdateEventBody = z.infer<typeof updateEventBodySchema>;

/** GET /api/v1/events */
export const listEventsQuerySchema = listQuerySchema({
  site_id: nameString(TEXT_LIMITS.id).optional(),
  status: eventStatusSchema.optional(),
  upcoming: queryBooleanSchema.optional(),
  past: queryBooleanSchema.optional(),
  start_date: localDateSchema.optional(),
  end_date: localDateSchema.optional(),
  include_counts: queryBooleanSchema.optional(),
});
export type ListEventsQuery = z.infer<typeof listEventsQuerySchema>;

/** GET /api/v1/events/{id} */
export const getEventQuerySchema = z.strictObject({ include_counts: queryBooleanSchema.optional() }, strictFields);

/**
 * Places taken (sum of quantities of confirmed registrations), left (null when `slots` is null), asked for by
 * waitlisted registrations, and checked in (sum of quantities of checked-in registrations that are not cancelled).
 */
export const eventCountsSchema = z.object({
  registrations: z.number().int(),
  remaining: z.number().int().nullable(),
  waitlisted: z.number().int(),
  checked_in: z.number().int(),
});

export const eventRecordSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    start_date: z.string(),
    start_time: z.string().nullable(),
    end_time: z.string().nullable(),
    timezone: z.string(),
    starts_at: z.string(),
    ends_at: z.string().nullable(),
    location: z.string().nullable(),
    cost: z.number(),
    slots: z.number().int().nullable(),
    status: eventStatusSchema,
    site_id: z.string().nullable(),
    waitlist: z.boolean(),
    questions: z.array(eventQuestionRecordSchema),
    created_at: z.string(),
    updated_at: z.string(),
    counts: eventCountsSchema.optional(),
  })
  .meta({ id: 'Event' });
export type EventRecord = z.infer<typeof eventRecordSchema>;

export { eventDeletionSchema };

/** POST /api/v1/events/{id}/registrations */
export const createRegistrationBodySchema = z
  .strictObject(
    {
      name: text(TEXT_LIMITS.name),
      email: emailString(TEXT_LIMITS.email),
      quantity: z
        .number()
        .int({ message: 'must be an integer' })
        .min(1, { message: 'must be at least 1' })
        .max(10_000, { message: 'must be at most 10000' })
        .default(1),
      /** Required on an event with ticket types; refused on one without. */
      ticket_type_id: uuidSchema.optional(),
      /** Checked against the event's questions by the events service (a 400 names the question id). */
      answers: registrationAnswersSchema.default({}),
    },
    strictFields,
  )
  .meta({
    id: 'CreateRegistrationBody',
    example: { name: 'Grace Hopper', email: 'grace@example.com', quantity: 2, answers: { diet: 'vegetarian' } },
  });
export type CreateRegistrationBody = z.infer<typeof createRegistrationBodySchema>;

export const REGISTRATION_STATUSES = ['confirmed', 'waitlisted', 'cancelled'] as const;
export const registrationStatusSchema = z.enum(REGISTRATION_STATUSES, { message: `must be one of ${REGISTRATION_STATUSES.join(', ')}` });

/** GET /api/v1/events/{id}/registrations */
export const listRegistrationsQuerySchema = listQuerySchema({ status: registrationStatusSchema.optional() });
export type ListRegistrationsQuery = z.infer<typeof listRegistrationsQuerySchema>;

export const registrationRecordSchema = z
  .object({
    id: z.uuid(),
    event_id: z.uuid(),
    name: z.string(),
    email: z.string(),
    quantity: z.number().int(),
    status: registrationStatusSchema,
    ticket_type_id: z.uuid().nullable(),
    waitlist_position: z.number().int().nullable().describe('1-based, per event, in arrival order; null unless waitlisted'),
    ticket_code: z.string().describe('10 characters of A-Z and 2-9, unique in the organization: what the door scans'),
    checked_in_at: z.string().nullable(),
    answers: registrationAnswersRecordSchema,
    created_at: z.string(),
    cancelled_at: z.string().nullable(),
  })
  .meta({ id: 'Registration' });
export type RegistrationRecord = z.infer<typeof registrationRecordSchema>;

/**
 * The 201 of POST /api/v1/events/{id}/registrations: the record and its `client_secret` (API.md "Keys"), shown in this
 * answer only and stored as a hash. With a publishable key it is what lets the attendee cancel this registration;
 * no list, GET, event or webhook ever shows it again.
 */
export const createdRegistrationSchema = registrationRecordSchema
  .extend({
    client_secret: z
      .string()
      .describe('`cs_` and 32 or more random characters: shown only here; send it as `?client_secret=` to cancel with a publishable key'),
  })
  .meta({ id: 'CreatedRegistration' });
export type CreatedRegistration = z.infer<typeof createdRegistrationSchema>;
