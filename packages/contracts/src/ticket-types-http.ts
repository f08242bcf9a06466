import { z } from 'zod';
import { allOptional, text } from './events-http-fields.js';
import { strictFields } from './strict.js';
import { dollarsSchema, instantSchema } from './scalars.js';
import { TEXT_LIMITS } from './text-limits.js';

/** HTTP bodies, queries and records of an event's ticket types (events service, API.md "Ticket types, waitlists…"). */

const ticketTypeFields = {
  name: text(TEXT_LIMITS.name),
  price: dollarsSchema,
  /** Null: only the event's slots limit the type. */
  quantity: z
    .number()
    .int({ message: 'must be an integer' })
    .min(1, { message: 'must be at least 1' })
    .max(1_000_000, { message: 'must be at most 1000000' })
    .nullable(),
  sales_start: instantSchema.nullable(),
  sales_end: instantSchema.nullable(),
};

/** POST /api/v1/events/{id}/ticket-types: name and price required. */
export const createTicketTypeBodySchema = z
  .strictObject({ ...allOptional(ticketTypeFields), name: ticketTypeFields.name, price: ticketTypeFields.price }, strictFields)
  .meta({
    id: 'CreateTicketTypeBody',
    example: { name: 'Early bird', price: 29.5, quantity: 50, sales_start: '2030-01-01T00:00:00Z', sales_end: '2030-02-01T00:00:00Z' },
  });
export type CreateTicketTypeBody = z.infer<typeof createTicketTypeBodySchema>;

/** PATCH /api/v1/events/{id}/ticket-types/{ticketTypeId}: any field; `null` clears quantity or a sales bound. */
export const updateTicketTypeBodySchema = z
  .strictObject(allOptional(ticketTypeFields), strictFields)
  .meta({ id: 'UpdateTicketTypeBody', example: { quantity: 80 } });
export type UpdateTicketTypeBody = z.infer<typeof updateTicketTypeBodySchema>;

export const ticketTypeRecordSchema = z
  .object({
    id: z.uuid(),
    event_id: z.uuid(),
    name: z.string(),
    price: z.number(),
    quantity: z.number().int().nullable(),
    sales_start: z.string().nullable(),
    sales_end: z.string().nullable(),
    sold: z.number().int().describe('places taken by confirmed registrations of this type'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'TicketType' });
export type TicketTypeRecord = z.infer<typeof ticketTypeRecordSchema>;
