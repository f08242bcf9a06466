import { z } from 'zod';
import { eventTypeRecordSchema } from './event-types-http.js';
import { eventRecordSchema, registrationRecordSchema } from './events-http.js';
import { eventRecordV1, registrationRecordV1, upgradeEventRecord, withoutRecord } from './events-v1.js';
import { ticketTypeRecordSchema } from './ticket-types-http.js';
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
const eventStateOf = <Record extends z.ZodType>(record: Record) => idOnly.extend({ status: z.string(), record: publicRecord(record) });
const eventState = eventStateOf(eventRecordSchema);
const eventStateV1 = eventStateOf(eventRecordV1);
type EventStateV1 = z.infer<typeof eventStateV1>;
const upgradeEventState = <Data extends EventStateV1>(data: Data) => ({ ...data, record: upgradeEventRecord(data.record) });
/** Version 2: the record has `waitlist` and `questions`, its counts `waitlisted` and `checked_in`. */
export const eventCreatedEvent = defineEvent('events.event.created', eventState, {
  version: 2,
  previous: { data: eventStateV1, upgrade: upgradeEventState },
});
export const eventUpdatedEvent = defineEvent('events.event.updated', eventState.extend({ previous_attributes: previousAttributesSchema }), {
  version: 2,
  previous: { data: eventStateV1.extend({ previous_attributes: previousAttributesSchema }), upgrade: upgradeEventState },
});
export const eventDeletedEvent = defineEvent('events.event.deleted', idOnly);
const registrationStateOf = <Record extends z.ZodType>(record: Record) =>
  idOnly.extend({ event_id: z.uuid(), quantity: z.number().int(), record: publicRecord(record) });
const registrationState = registrationStateOf(registrationRecordSchema);
const registrationStateV1 = registrationStateOf(registrationRecordV1);
/**
 * Version 2: statuses confirmed | waitlisted | cancelled (`active` was renamed), `ticket_type_id`, `waitlist_position`,
 * `ticket_code`, `checked_in_at` and `answers`.
 */
const registrationVersions = { version: 2, previous: { data: registrationStateV1, upgrade: withoutRecord } };
export const registrationCreatedEvent = defineEvent('events.registration.created', registrationState, registrationVersions);
export const registrationCancelledEvent = defineEvent('events.registration.cancelled', registrationState, registrationVersions);
/** A waitlisted registration confirmed when places freed up (in the transaction that freed them), once per registration. */
export const registrationPromotedEvent = defineEvent('events.registration.promoted', registrationState);
/** A ticket scanned at the door (the first scan only; an undo sends nothing). */
export const registrationCheckedInEvent = defineEvent('events.registration.checked_in', registrationState);
const eventTypeState = idOnly.extend({ slug: z.string(), record: publicRecord(eventTypeRecordSchema) });
export const eventTypeCreatedEvent = defineEvent('events.event_type.created', eventTypeState);
export const eventTypeUpdatedEvent = defineEvent(
  'events.event_type.updated',
  eventTypeState.extend({ previous_attributes: previousAttributesSchema }),
);
export const eventTypeDeletedEvent = defineEvent('events.event_type.deleted', idOnly);
const ticketTypeState = idOnly.extend({ event_id: z.uuid(), record: publicRecord(ticketTypeRecordSchema) });
export const ticketTypeCreatedEvent = defineEvent('events.ticket_type.created', ticketTypeState);
export const ticketTypeUpdatedEvent = defineEvent(
  'events.ticket_type.updated',
  ticketTypeState.extend({ previous_attributes: previousAttributesSchema }),
);
export const ticketTypeDeletedEvent = defineEvent('events.ticket_type.deleted', idOnly);

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
  registrationPromotedEvent,
  ticketTypeCreatedEvent,
  ticketTypeUpdatedEvent,
  ticketTypeDeletedEvent,
] as const;
/** Lists subjects one by one: a wildcard such as `events.event_type.>` would also capture the request subject. */
export const EVENTS_STREAM = defineStream('EVENTS', EVENTS_SERVICE_EVENTS);
