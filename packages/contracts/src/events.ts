import { z } from 'zod';
import { eventTypeRecordSchema } from './event-types-http.js';
import { eventRecordSchema, registrationRecordSchema } from './events-http.js';
import { eventStateV1, eventUpdatedV1, registrationStateV1, upgradeEventRecord, upgradeRegistrationState } from './events-previous.js';
import { locationTypeSchema } from './location-type.js';
import { defineEvent, defineRequest, defineStream } from './messaging.js';
import { previousAttributesSchema } from './previous-attributes.js';
import { publicRecord } from './public-record.js';

/** `events.event_type.get`: an event type of the organization (active or not); NOT_FOUND otherwise. */
export const eventTypeGetRequest = defineRequest(
  'events.event_type.get',
  z.object({ organization_id: z.uuid(), event_type_id: z.string() }),
  z.object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    duration: z.number().int(),
    location_type: locationTypeSchema,
    requires_approval: z.boolean(),
    is_active: z.boolean(),
  }),
);

const idOnly = z.object({ id: z.uuid() });
const eventState = idOnly.extend({ status: z.string(), record: publicRecord(eventRecordSchema) });
/** Version 2: the record has `questions` and `counts.checked_in` (events-previous.ts). */
export const eventCreatedEvent = defineEvent('events.event.created', eventState, {
  version: 2,
  previous: { data: eventStateV1, upgrade: (data) => ({ ...data, record: upgradeEventRecord(data.record) }) },
});
export const eventUpdatedEvent = defineEvent('events.event.updated', eventState.extend({ previous_attributes: previousAttributesSchema }), {
  version: 2,
  previous: { data: eventUpdatedV1, upgrade: (data) => ({ ...data, record: upgradeEventRecord(data.record) }) },
});
export const eventDeletedEvent = defineEvent('events.event.deleted', idOnly);
const registrationState = idOnly.extend({ event_id: z.uuid(), quantity: z.number().int(), record: publicRecord(registrationRecordSchema) });
/** Version 2: the record has `ticket_code`, `checked_in_at` and `answers` (events-previous.ts). */
const registrationVersion2 = { version: 2, previous: { data: registrationStateV1, upgrade: upgradeRegistrationState } };
export const registrationCreatedEvent = defineEvent('events.registration.created', registrationState, registrationVersion2);
export const registrationCancelledEvent = defineEvent('events.registration.cancelled', registrationState, registrationVersion2);
/** A ticket scanned at the door (the first scan only; an undo sends nothing). */
export const registrationCheckedInEvent = defineEvent('events.registration.checked_in', registrationState);
const eventTypeState = idOnly.extend({ slug: z.string(), record: publicRecord(eventTypeRecordSchema) });
export const eventTypeCreatedEvent = defineEvent('events.event_type.created', eventTypeState);
export const eventTypeUpdatedEvent = defineEvent(
  'events.event_type.updated',
  eventTypeState.extend({ previous_attributes: previousAttributesSchema }),
);
export const eventTypeDeletedEvent = defineEvent('events.event_type.deleted', idOnly);

export const EVENTS_SERVICE_EVENTS = [
  eventCreatedEvent,
  eventUpdatedEvent,
  eventDeletedEvent,
  registrationCreatedEvent,
  registrationCancelledEvent,
  registrationCheckedInEvent,
  eventTypeCreatedEvent,
  eventTypeUpdatedEvent,
  eventTypeDeletedEvent,
] as const;
/** Lists subjects one by one: a wildcard such as `events.event_type.>` would also capture the request subject. */
export const EVENTS_STREAM = defineStream('EVENTS', EVENTS_SERVICE_EVENTS);
