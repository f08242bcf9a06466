import { z } from 'zod';
import {
  bookingCancelledEvent,
  bookingCreatedEvent,
  bookingRescheduledEvent,
  bookingStatusChangedEvent,
  bookingUpdatedEvent,
} from './bookings.js';
import { calendarConnectionCreatedEvent, calendarConnectionRemovedEvent, calendarConnectionStatusChangedEvent } from './calendar.js';
import {
  categoryCreatedEvent,
  categoryDeletedEvent,
  categoryUpdatedEvent,
  inventoryReservationCommittedEvent,
  mediaCreatedEvent,
  mediaDeletedEvent,
  productCreatedEvent,
  productDeletedEvent,
  productUpdatedEvent,
  variantCreatedEvent,
  variantDeletedEvent,
  variantUpdatedEvent,
} from './catalog.js';
import {
  eventCreatedEvent,
  eventDeletedEvent,
  eventTypeCreatedEvent,
  eventTypeDeletedEvent,
  eventTypeUpdatedEvent,
  eventUpdatedEvent,
  registrationCancelledEvent,
  registrationCheckedInEvent,
  registrationCreatedEvent,
  registrationPromotedEvent,
  ticketTypeCreatedEvent,
  ticketTypeDeletedEvent,
  ticketTypeUpdatedEvent,
} from './events.js';
import { apiKeyCreatedEvent, apiKeyRevokedEvent } from './identity-events.js';
import type { EventContract } from './messaging.js';
import { UNCOMPARED_FIELDS } from './previous-attributes.js';
import { scheduleCreatedEvent, scheduleDeactivatedEvent, scheduleUpdatedEvent } from './scheduling.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks-http.js';

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
  'registration.checked_in': registrationCheckedInEvent,
  'event_type.created': eventTypeCreatedEvent,
  'event_type.updated': eventTypeUpdatedEvent,
  'event_type.deleted': eventTypeDeletedEvent,
  'registration.promoted': registrationPromotedEvent,
  'ticket_type.created': ticketTypeCreatedEvent,
  'ticket_type.updated': ticketTypeUpdatedEvent,
  'ticket_type.deleted': ticketTypeDeletedEvent,
  'product.created': productCreatedEvent,
  'product.updated': productUpdatedEvent,
  'product.deleted': productDeletedEvent,
  'media.created': mediaCreatedEvent,
  'media.deleted': mediaDeletedEvent,
  'category.created': categoryCreatedEvent,
  'category.updated': categoryUpdatedEvent,
  'category.deleted': categoryDeletedEvent,
  'variant.created': variantCreatedEvent,
  'variant.updated': variantUpdatedEvent,
  'variant.deleted': variantDeletedEvent,
  'inventory.reservation.committed': inventoryReservationCommittedEvent,
  'calendar_connection.created': calendarConnectionCreatedEvent,
  'calendar_connection.status_changed': calendarConnectionStatusChangedEvent,
  'calendar_connection.removed': calendarConnectionRemovedEvent,
  'api_key.created': apiKeyCreatedEvent,
  'api_key.revoked': apiKeyRevokedEvent,
} as const satisfies Record<Exclude<WebhookEventType, 'webhook.test'>, EventContract<z.ZodType>>;

/**
 * The public type of each internal subject that endpoints are offered. Subjects missing here (`calendar.busy.updated`,
 * `calendar.booking_event.changed`, which the booking's record shows as `calendar_event`) are internal and never leave
 * the system.
 */
export const WEBHOOK_TYPE_OF_SUBJECT: Readonly<Record<string, WebhookEventType>> = Object.fromEntries(
  Object.entries(SOURCES).map(([type, contract]) => [contract.subject, type as WebhookEventType]),
);

/**
 * A webhook's `data`: the record as the API's `GET` returns it after the change, which the producer put in the event
 * (`data.record`, event-carried state); `{id}` for a deletion or removal; a schedule event's data is its record (but its
 * `previous_attributes`). An event written by a producer from before `record` existed (still in a stream during a
 * rolling deploy) keeps its data.
 */
export function webhookData(subject: string, data: Record<string, unknown>): unknown {
  if (data.record !== undefined) return data.record;
  if (subject === calendarConnectionRemovedEvent.subject) return { id: data.connection_id };
  // A schedule event's data is its record, beside which an update carries its previous_attributes.
  const { previous_attributes: _previous, ...record } = data;
  return record;
}

/** The schema of a webhook type's `data`, as `webhookData` makes it (for the AsyncAPI document). */
export function webhookDataSchema(type: WebhookEventType): z.ZodType {
  if (type === 'webhook.test') return z.object({ endpoint_id: z.uuid() });
  const contract: EventContract<z.ZodType> = SOURCES[type];
  if (contract === calendarConnectionRemovedEvent) return z.object({ id: z.uuid() });
  if (!(contract.data instanceof z.ZodObject)) return contract.data;
  const { record, previous_attributes: previous } = contract.data.shape as Record<string, z.ZodType | undefined>;
  if (record instanceof z.ZodOptional) return record.unwrap() as z.ZodType;
  return previous ? contract.data.omit({ previous_attributes: true }) : contract.data;
}

/** The types whose deliveries and feed items carry `previous_attributes` (API.md): updates, status changes, reschedules. */
export const TYPES_WITH_PREVIOUS_ATTRIBUTES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES.filter(
  (type) => type.endsWith('.updated') || type.endsWith('.status_changed') || type === 'booking.rescheduled',
);

/**
 * A webhook's `previous_attributes` (for the types that carry it, else undefined): what the producer wrote, or for an
 * event written before producers wrote it, what its `previous_*` fields say (`previous_status` → `{status}`); undefined
 * when the event says nothing of the values before.
 */
export function webhookPreviousAttributes(subject: string, data: Record<string, unknown>): Record<string, unknown> | undefined {
  const type = WEBHOOK_TYPE_OF_SUBJECT[subject];
  if (!type || !TYPES_WITH_PREVIOUS_ATTRIBUTES.includes(type)) return undefined;
  const written = data.previous_attributes;
  if (typeof written === 'object' && written !== null && !Array.isArray(written)) return written as Record<string, unknown>;
  if (typeof data.previous_status === 'string') return { status: data.previous_status };
  if (typeof data.previous_start_time === 'string' && typeof data.previous_end_time === 'string')
    return { start_time: data.previous_start_time, end_time: data.previous_end_time };
  return undefined;
}

/**
 * A public domain event as its webhook and its change-feed item show it: the webhook type, `data` and (for the types that
 * carry it) `previous_attributes`; undefined for an internal event (calendar.busy.updated), which neither shows.
 */
export function webhookEventOf(
  subject: string,
  data: Record<string, unknown>,
): { type: WebhookEventType; data: unknown; previous_attributes: Record<string, unknown> | undefined } | undefined {
  const type = WEBHOOK_TYPE_OF_SUBJECT[subject];
  if (!type) return undefined;
  return { type, data: webhookData(subject, data), previous_attributes: webhookPreviousAttributes(subject, data) };
}

/** What `previous_attributes` of `type` can hold: any of its record's fields (updated_at aside), with their types. */
export function previousAttributesSchemaOf(type: WebhookEventType): z.ZodType {
  const data = webhookDataSchema(type);
  const compared = (shape: z.ZodRawShape) => Object.entries(shape).filter(([field]) => !UNCOMPARED_FIELDS.includes(field));
  const fields =
    data instanceof z.ZodObject ? z.object(Object.fromEntries(compared(data.shape))).partial() : z.record(z.string(), z.unknown());
  const usually =
    type === 'booking.rescheduled'
      ? ' (`start_time` and `end_time`)'
      : type.endsWith('.status_changed')
        ? ' (`status`, and whatever else the status change altered)'
        : '';
  return fields.describe(`The fields this change altered${usually}, each with its value before the change; \`updated_at\` is left out.`);
}

/** The body POSTed to an endpoint: `{id, type, occurred_at, data}`, plus `previous_attributes` for updates (API.md, Webhooks). */
export function webhookPayloadSchema(type: WebhookEventType): z.ZodType {
  return z.object({
    id: z.uuid().describe('The domain event id: also the webhook-id header, the same on every retry'),
    type: z.literal(type),
    occurred_at: z.iso.datetime(),
    data: webhookDataSchema(type),
    ...(TYPES_WITH_PREVIOUS_ATTRIBUTES.includes(type) && { previous_attributes: previousAttributesSchemaOf(type).optional() }),
  });
}
