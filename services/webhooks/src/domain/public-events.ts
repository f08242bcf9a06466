import type { WebhookEventType } from '@app/contracts';

/**
 * The public type of each internal domain event subject that endpoints are offered. Subjects missing here
 * (calendar.busy.updated) are internal and never leave the system.
 */
export const PUBLIC_TYPE_OF_SUBJECT: Readonly<Record<string, WebhookEventType>> = {
  'bookings.booking.created': 'booking.created',
  'bookings.booking.updated': 'booking.updated',
  'bookings.booking.status_changed': 'booking.status_changed',
  'bookings.booking.rescheduled': 'booking.rescheduled',
  'bookings.booking.cancelled': 'booking.cancelled',
  'scheduling.schedule.created': 'schedule.created',
  'scheduling.schedule.updated': 'schedule.updated',
  'scheduling.schedule.deactivated': 'schedule.deactivated',
  'events.event.created': 'event.created',
  'events.event.updated': 'event.updated',
  'events.event.deleted': 'event.deleted',
  'events.registration.created': 'registration.created',
  'events.registration.cancelled': 'registration.cancelled',
  'events.event_type.created': 'event_type.created',
  'events.event_type.updated': 'event_type.updated',
  'events.event_type.deleted': 'event_type.deleted',
  'catalog.product.created': 'product.created',
  'catalog.product.updated': 'product.updated',
  'catalog.product.deleted': 'product.deleted',
  'catalog.media.created': 'media.created',
  'catalog.media.deleted': 'media.deleted',
  'calendar.connection.created': 'calendar_connection.created',
  'calendar.connection.status_changed': 'calendar_connection.status_changed',
  'calendar.connection.removed': 'calendar_connection.removed',
};

/** What a receiver gets: `{id, type, occurred_at, data}`, serialized once so every attempt signs the same bytes. */
export function deliveryBody(event: { id: string; type: string; occurred_at: string; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, occurred_at: event.occurred_at, data: event.data });
}
