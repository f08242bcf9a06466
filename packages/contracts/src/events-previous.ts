import { z } from 'zod';
import type { EventRecord } from './events-http.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';

/*
 * Version 1 of the events service's event and registration events, before check-in and questions (issue 49): written
 * out, not derived from the current records, so version 1 stays as it was whatever the records gain. Each reads as
 * version 2 through its upgrade (events.ts); events of version 1 only exist in streams and outboxes during the
 * rolling deploy that brings version 2.
 */

const eventRecordV1 = z.object({
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
  status: z.enum(['draft', 'published', 'cancelled']),
  site_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  counts: z.object({ registrations: z.number().int(), remaining: z.number().int().nullable() }).optional(),
});

const registrationRecordV1 = z.object({
  id: z.uuid(),
  event_id: z.uuid(),
  name: z.string(),
  email: z.string(),
  quantity: z.number().int(),
  status: z.enum(['active', 'cancelled']),
  created_at: z.string(),
  cancelled_at: z.string().nullable(),
});

const idOnly = z.object({ id: z.uuid() });

export const eventStateV1 = idOnly.extend({ status: z.string(), record: publicRecord(eventRecordV1) });
export const eventUpdatedV1 = eventStateV1.extend({ previous_attributes: previousAttributesSchema });
export const registrationStateV1 = idOnly.extend({
  event_id: z.uuid(),
  quantity: z.number().int(),
  record: publicRecord(registrationRecordV1),
});

/** An event of version 1 had no questions, and nobody was checked in: its record reads as version 2 with none. */
export function upgradeEventRecord(record: z.output<typeof eventRecordV1> | undefined): EventRecord | undefined {
  if (record === undefined) return undefined;
  const { counts, ...fields } = record;
  return { ...fields, questions: [], ...(counts ? { counts: { ...counts, checked_in: 0 } } : {}) };
}

/**
 * A registration of version 1 carries no ticket code, which cannot be made up: its data reads as version 2 without
 * the record (as events written before records were carried), so a webhook of it shows `{id, event_id, quantity}`.
 */
export function upgradeRegistrationState({
  record: _record,
  ...state
}: z.output<typeof registrationStateV1>): Omit<z.output<typeof registrationStateV1>, 'record'> {
  return state;
}
