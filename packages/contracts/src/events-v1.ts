import { z } from 'zod';
import { eventStatusSchema } from './events-http.js';

/*
 * Version 1 of the events service's event and registration records, as domain events carried them before ticket types
 * and waitlists (schema_version 1). Written out, not derived from the current records: version 1 stays as it was
 * whatever the records gain. Not re-exported from the package index.
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

/** A version 1 event record read as version 2: no waitlist then, so none waited. */
export function upgradeEventRecord(record: EventRecordV1 | undefined) {
  if (!record) return undefined;
  const { counts, ...rest } = record;
  return { ...rest, waitlist: false, ...(counts ? { counts: { ...counts, waitlisted: 0 } } : {}) };
}

/** A version 1 registration read as version 2: `active` is now `confirmed`; no ticket type, no waitlist then. */
export function upgradeRegistrationRecord(record: RegistrationRecordV1 | undefined) {
  if (!record) return undefined;
  return {
    ...record,
    status: record.status === 'active' ? ('confirmed' as const) : record.status,
    ticket_type_id: null,
    waitlist_position: null,
  };
}
