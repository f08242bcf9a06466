import { z } from 'zod';
import {
  bookingCancelledEvent,
  bookingCreatedEvent,
  bookingRescheduledEvent,
  bookingStatusChangedEvent,
  bookingUpdatedEvent,
} from './bookings.js';
import { calendarConnectionCreatedEvent, calendarConnectionRemovedEvent, calendarConnectionStatusChangedEvent } from './calendar.js';
import { mediaCreatedEvent, mediaDeletedEvent, productCreatedEvent, productDeletedEvent, productUpdatedEvent } from './catalog.js';
import {
  eventCreatedEvent,
  eventDeletedEvent,
  eventTypeCreatedEvent,
  eventTypeDeletedEvent,
  eventTypeUpdatedEvent,
  eventUpdatedEvent,
  registrationCancelledEvent,
  registrationCreatedEvent,
} from './events.js';
import type { EventContract } from './messaging.js';
import { scheduleCreatedEvent, scheduleDeactivatedEvent, scheduleUpdatedEvent } from './scheduling.js';
import type { WebhookEventType } from './webhooks-http.js';

/** The domain event each public webhook type is made from (`webhook.test` is made by the webhooks service itself). */
const SOURCES = {
  'booking.created': bookingCreatedEvent,
  'booking.updated': bookingUpdatedEvent,
  'booking.status_changed': bookingStatusChangedEvent,
  'booking.rescheduled': bookingRescheduledEvent,
  'booking.cancelled': bookingCancelledEvent,
  'schedule.created': scheduleCreatedEvent,
  'schedule.updated': scheduleUpdatedEvent,
  'schedule.deactivated': scheduleDeactivatedEvent,
  'event.created': eventCreatedEvent,
  'event.updated': eventUpdatedEvent,
  'event.deleted': eventDeletedEvent,
  'registration.created': registrationCreatedEvent,
  'registration.cancelled': registrationCancelledEvent,
  'event_type.created': eventTypeCreatedEvent,
  'event_type.updated': eventTypeUpdatedEvent,
  'event_type.deleted': eventTypeDeletedEvent,
  'product.created': productCreatedEvent,
  'product.updated': productUpdatedEvent,
  'product.deleted': productDeletedEvent,
  'media.created': mediaCreatedEvent,
  'media.deleted': mediaDeletedEvent,
  'calendar_connection.created': calendarConnectionCreatedEvent,
  'calendar_connection.status_changed': calendarConnectionStatusChangedEvent,
  'calendar_connection.removed': calendarConnectionRemovedEvent,
} as const satisfies Record<Exclude<WebhookEventType, 'webhook.test'>, EventContract<z.ZodType>>;

/**
 * The public type of each internal subject that endpoints are offered. Subjects missing here (`calendar.busy.updated`)
 * are internal and never leave the system.
 */
export const WEBHOOK_TYPE_OF_SUBJECT: Readonly<Record<string, WebhookEventType>> = Object.fromEntries(
  Object.entries(SOURCES).map(([type, contract]) => [contract.subject, type as WebhookEventType]),
);

/**
 * A webhook's `data`: the record as the API's `GET` returns it after the change, which the producer put in the event
 * (`data.record`, event-carried state); `{id}` for a deletion or removal; a schedule event's data is its record. An
 * event written by a producer from before `record` existed (still in a stream during a rolling deploy) keeps its data.
 */
export function webhookData(subject: string, data: Record<string, unknown>): unknown {
  if (data.record !== undefined) return data.record;
  if (subject === calendarConnectionRemovedEvent.subject) return { id: data.connection_id };
  return data;
}

/** The schema of a webhook type's `data`, as `webhookData` makes it (for the AsyncAPI document). */
export function webhookDataSchema(type: WebhookEventType): z.ZodType {
  if (type === 'webhook.test') return z.object({ endpoint_id: z.uuid() });
  const contract: EventContract<z.ZodType> = SOURCES[type];
  if (contract === calendarConnectionRemovedEvent) return z.object({ id: z.uuid() });
  const record = contract.data instanceof z.ZodObject ? contract.data.shape.record : undefined;
  return record instanceof z.ZodOptional ? (record.unwrap() as z.ZodType) : contract.data;
}

/** The body POSTed to an endpoint: `{id, type, occurred_at, data}` (API.md, Webhooks). */
export function webhookPayloadSchema(type: WebhookEventType): z.ZodType {
  return z.object({
    id: z.uuid().describe('The domain event id: also the webhook-id header, the same on every retry'),
    type: z.literal(type),
    occurred_at: z.iso.datetime(),
    data: webhookDataSchema(type),
  });
}
