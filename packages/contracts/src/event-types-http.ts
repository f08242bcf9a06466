import { z } from 'zod';
import { locationTypeSchema } from './location-type.js';
import { allOptional, optionalText, titleText } from './events-http-fields.js';
import { strictFields } from './strict.js';
import { listQuerySchema } from './pagination.js';
import { queryBooleanSchema } from './scalars.js';
import { nameString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';

/** HTTP bodies, queries and records of event types (events service). */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const eventTypeFields = {
  title: titleText,
  duration: z
    .number()
    .int({ message: 'must be an integer' })
    .positive({ message: 'must be a positive integer' })
    .max(10_080, { message: 'must be at most 10080 minutes (a week)' }),
  slug: nameString(TEXT_LIMITS.eventTypeSlug).regex(SLUG, { message: 'must be lowercase letters, digits and single hyphens' }),
  description: optionalText(TEXT_LIMITS.description).nullable(),
  location_type: locationTypeSchema,
  location_details: optionalText(TEXT_LIMITS.location).nullable(),
  // The anchored pattern bounds it and admits nothing unsafe: no maxLength or text check needed.
  color: z
    .string()
    .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { message: 'must be a hex color #RRGGBB or #RGB' })
    .nullable(),
  requires_approval: z.boolean({ message: 'must be a boolean' }),
  is_active: z.boolean({ message: 'must be a boolean' }),
};

/** POST /api/v1/event-types: title and duration required. */
export const createEventTypeBodySchema = z
  .strictObject(
    {
      ...allOptional(eventTypeFields),
      title: eventTypeFields.title,
      duration: eventTypeFields.duration,
    },
    strictFields,
  )
  .meta({ id: 'CreateEventTypeBody', example: { title: 'Intro call', duration: 30, location_type: 'video', color: '#3366ff' } });
export type CreateEventTypeBody = z.infer<typeof createEventTypeBodySchema>;

/** PATCH /api/v1/event-types/{id}: any field; `null` clears description, location_details or color. */
export const updateEventTypeBodySchema = z
  .strictObject(allOptional(eventTypeFields), strictFields)
  .meta({ id: 'UpdateEventTypeBody', example: { duration: 45, requires_approval: true } });
export type UpdateEventTypeBody = z.infer<typeof updateEventTypeBodySchema>;

/** GET /api/v1/event-types: `active` defaults to true. */
export const listEventTypesQuerySchema = listQuerySchema({ active: queryBooleanSchema.default(true) });
export type ListEventTypesQuery = z.infer<typeof listEventTypesQuerySchema>;

export const eventTypeRecordSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    duration: z.number().int(),
    location_type: locationTypeSchema,
    /** Absent when not set. */
    location_details: z.string().optional(),
    color: z.string().nullable(),
    requires_approval: z.boolean(),
    is_active: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'EventType' });
export type EventTypeRecord = z.infer<typeof eventTypeRecordSchema>;
