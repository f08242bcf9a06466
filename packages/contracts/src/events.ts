import { z } from 'zod';
import { defineEvent, defineRequest, defineStream } from './messaging.js';

export const LOCATION_TYPES = ['in_person', 'phone', 'video', 'custom'] as const;
export const locationTypeSchema = z.enum(LOCATION_TYPES, { message: `must be one of ${LOCATION_TYPES.join(', ')}` });

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
export const eventCreatedEvent = defineEvent('events.event.created', idOnly.extend({ status: z.string() }));
export const eventUpdatedEvent = defineEvent('events.event.updated', idOnly.extend({ status: z.string() }));
export const eventDeletedEvent = defineEvent('events.event.deleted', idOnly);
export const registrationCreatedEvent = defineEvent(
  'events.registration.created',
  idOnly.extend({ event_id: z.uuid(), quantity: z.number().int() }),
);
export const registrationCancelledEvent = defineEvent(
  'events.registration.cancelled',
  idOnly.extend({ event_id: z.uuid(), quantity: z.number().int() }),
);
export const eventTypeCreatedEvent = defineEvent('events.event_type.created', idOnly.extend({ slug: z.string() }));
export const eventTypeUpdatedEvent = defineEvent('events.event_type.updated', idOnly.extend({ slug: z.string() }));
export const eventTypeDeletedEvent = defineEvent('events.event_type.deleted', idOnly);

export const EVENTS_SERVICE_EVENTS = [
  eventCreatedEvent,
  eventUpdatedEvent,
  eventDeletedEvent,
  registrationCreatedEvent,
  registrationCancelledEvent,
  eventTypeCreatedEvent,
  eventTypeUpdatedEvent,
  eventTypeDeletedEvent,
] as const;
/** Lists subjects one by one: a wildcard such as `events.event_type.>` would also capture the request subject. */
export const EVENTS_STREAM = defineStream('EVENTS', EVENTS_SERVICE_EVENTS);
