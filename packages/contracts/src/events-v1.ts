import { z } from 'zod';
import { eventStatusSchema } from './events-http.js';

/*
 * Version 1 of the events service's event and registration records, as domain events carried them before ticket
 * types, waitlists, check-in and questions (schema_version 1; issue 49). Written out, not derived from the current
 * records: version 1 stays as it was whatever the records gain. Events of version 1 exist only in streams and outboxes
 * during the rolling deploy that brings version 2. Not re-exported from the package index.
 */

export const eventRecordV1 = z.object({
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
  created_at: z.string(),
  updated_at: z.string(),
  counts: z.object({ registrations: z.number().int(), remaining: z.number().int().nullable() }).optional(),
});
type EventRecordV1 = z.infer<typeof eventRecordV1>;

export const registrationRecordV1 = z.object({
  id: z.uuid(),
  event_id: z.uuid(),
  name: z.string(),
  email: z.string(),
  quantity: z.number().int(),
  status: z.enum(['active', 'cancelled']),
  created_at: z.string(),
  cancelled_at: z.string().nullable(),
});
type RegistrationRecordV1 = z.infer<typeof registrationRecordV1>;

/** A version 1 event record read as version 2: no waitlist, no questions then, so none waited and none checked in. */
export function upgradeEventRecord(record: EventRecordV1 | undefined) {
  if (!record) return undefined;
  const { counts, ...rest } = record;
  return { ...rest, waitlist: false, questions: [], ...(counts ? { counts: { ...counts, waitlisted: 0, checked_in: 0 } } : {}) };
}

/**
 * A version 1 registration carries no ticket code, which cannot be made up: its data reads as version 2 without the
 * record (as events written before records were carried), so a webhook of it shows `{id, event_id, quantity}`.
 */
export function withoutRecord<State extends { record?: RegistrationRecordV1 | undefined }>({ record: _record, ...state }: State) {
  return state;
}
