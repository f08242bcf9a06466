import type { ApiKeyAccess, ApiKeyScope, ApiKeyScopeResource, ApiKeyType } from './api-key-kinds.js';
import { KEY_REFUSALS, scopesAllow } from './api-key-kinds.js';

/**
 * What a key needs to call one operation of the API: the scope resource a restricted key needs (null: any key of the
 * organization, or none at all on a public route), whether only a secret key may call it, and whether it is one of
 * the publishable keys' public operations of API.md "Keys". GET needs `<resource>:read`; POST, PATCH and DELETE
 * need `<resource>:write`.
 */
export interface OperationRule {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The OpenAPI path template, `{name}` for a parameter. */
  path: string;
  resource: ApiKeyScopeResource | null;
  secretOnly?: true;
  publishable?: true;
}

/**
 * Every `/api` operation of the OpenAPI document, by operationId: the one table the gateway checks restricted and
 * publishable keys against and every service checks them again with (the kit's key-kind guard). A test compares it
 * with the document both ways, so an operation added without a rule fails it.
 */
export const API_KEY_OPERATIONS = {
  pingBookings: { method: 'GET', path: '/api/v1/ping/bookings', resource: null },
  createBooking: { method: 'POST', path: '/api/v1/bookings', resource: 'bookings', publishable: true },
  listBookings: { method: 'GET', path: '/api/v1/bookings', resource: 'bookings' },
  getBooking: { method: 'GET', path: '/api/v1/bookings/{id}', resource: 'bookings', publishable: true },
  updateBooking: { method: 'PATCH', path: '/api/v1/bookings/{id}', resource: 'bookings', publishable: true },
  cancelBooking: { method: 'DELETE', path: '/api/v1/bookings/{id}', resource: 'bookings', publishable: true },
  createHold: { method: 'POST', path: '/api/v1/holds', resource: 'holds', publishable: true },
  getHold: { method: 'GET', path: '/api/v1/holds/{id}', resource: 'holds', publishable: true },
  releaseHold: { method: 'DELETE', path: '/api/v1/holds/{id}', resource: 'holds', publishable: true },
  createBookingSeries: { method: 'POST', path: '/api/v1/booking-series', resource: 'bookings' },
  getBookingSeries: { method: 'GET', path: '/api/v1/booking-series/{id}', resource: 'bookings' },
  cancelBookingSeries: { method: 'DELETE', path: '/api/v1/booking-series/{id}', resource: 'bookings' },
  pingScheduling: { method: 'GET', path: '/api/v1/ping/scheduling', resource: null },
  createSchedule: { method: 'POST', path: '/api/v1/schedules', resource: 'schedules' },
  listSchedules: { method: 'GET', path: '/api/v1/schedules', resource: 'schedules' },
  getSchedule: { method: 'GET', path: '/api/v1/schedules/{id}', resource: 'schedules', publishable: true },
  updateSchedule: { method: 'PATCH', path: '/api/v1/schedules/{id}', resource: 'schedules' },
  deleteSchedule: { method: 'DELETE', path: '/api/v1/schedules/{id}', resource: 'schedules' },
  listSlots: { method: 'GET', path: '/api/bookings/slots', resource: null, publishable: true },
  pingCatalog: { method: 'GET', path: '/api/v1/ping/catalog', resource: null },
  uploadMedia: { method: 'POST', path: '/api/v1/media', resource: 'media' },
  listMedia: { method: 'GET', path: '/api/v1/media', resource: 'media' },
  getMedia: { method: 'GET', path: '/api/v1/media/{id}', resource: 'media' },
  deleteMedia: { method: 'DELETE', path: '/api/v1/media/{id}', resource: 'media' },
  listProducts: { method: 'GET', path: '/api/v1/products', resource: 'products', publishable: true },
  createProduct: { method: 'POST', path: '/api/v1/products', resource: 'products' },
  getProduct: { method: 'GET', path: '/api/v1/products/{id}', resource: 'products', publishable: true },
  updateProduct: { method: 'PATCH', path: '/api/v1/products/{id}', resource: 'products' },
  deleteProduct: { method: 'DELETE', path: '/api/v1/products/{id}', resource: 'products' },
  listProductImages: { method: 'GET', path: '/api/v1/products/{id}/images', resource: 'products', publishable: true },
  attachProductImage: { method: 'POST', path: '/api/v1/products/{id}/images', resource: 'products' },
  updateProductImage: { method: 'PATCH', path: '/api/v1/products/{id}/images/{imageId}', resource: 'products' },
  deleteProductImage: { method: 'DELETE', path: '/api/v1/products/{id}/images/{imageId}', resource: 'products' },
  listCategories: { method: 'GET', path: '/api/v1/categories', resource: 'categories', publishable: true },
  createCategory: { method: 'POST', path: '/api/v1/categories', resource: 'categories' },
  getCategory: { method: 'GET', path: '/api/v1/categories/{id}', resource: 'categories' },
  updateCategory: { method: 'PATCH', path: '/api/v1/categories/{id}', resource: 'categories' },
  deleteCategory: { method: 'DELETE', path: '/api/v1/categories/{id}', resource: 'categories' },
  listProductVariants: { method: 'GET', path: '/api/v1/products/{id}/variants', resource: 'products', publishable: true },
  createProductVariant: { method: 'POST', path: '/api/v1/products/{id}/variants', resource: 'products' },
  getProductVariant: { method: 'GET', path: '/api/v1/products/{id}/variants/{variantId}', resource: 'products', publishable: true },
  updateProductVariant: { method: 'PATCH', path: '/api/v1/products/{id}/variants/{variantId}', resource: 'products' },
  deleteProductVariant: { method: 'DELETE', path: '/api/v1/products/{id}/variants/{variantId}', resource: 'products' },
  createInventoryReservation: { method: 'POST', path: '/api/v1/inventory/reservations', resource: 'inventory' },
  getInventoryReservation: { method: 'GET', path: '/api/v1/inventory/reservations/{id}', resource: 'inventory' },
  commitInventoryReservation: { method: 'POST', path: '/api/v1/inventory/reservations/{id}/commit', resource: 'inventory' },
  releaseInventoryReservation: { method: 'DELETE', path: '/api/v1/inventory/reservations/{id}', resource: 'inventory' },
  pingEvents: { method: 'GET', path: '/api/v1/ping/events', resource: null },
  listEvents: { method: 'GET', path: '/api/v1/events', resource: 'events', publishable: true },
  createEvent: { method: 'POST', path: '/api/v1/events', resource: 'events' },
  getEvent: { method: 'GET', path: '/api/v1/events/{id}', resource: 'events', publishable: true },
  updateEvent: { method: 'PATCH', path: '/api/v1/events/{id}', resource: 'events' },
  deleteEvent: { method: 'DELETE', path: '/api/v1/events/{id}', resource: 'events' },
  createRegistration: { method: 'POST', path: '/api/v1/events/{id}/registrations', resource: 'registrations', publishable: true },
  listRegistrations: { method: 'GET', path: '/api/v1/events/{id}/registrations', resource: 'registrations' },
  getRegistration: { method: 'GET', path: '/api/v1/events/{id}/registrations/{registrationId}', resource: 'registrations' },
  createTicketType: { method: 'POST', path: '/api/v1/events/{id}/ticket-types', resource: 'registrations' },
  listTicketTypes: { method: 'GET', path: '/api/v1/events/{id}/ticket-types', resource: 'registrations' },
  getTicketType: { method: 'GET', path: '/api/v1/events/{id}/ticket-types/{ticketTypeId}', resource: 'registrations' },
  updateTicketType: { method: 'PATCH', path: '/api/v1/events/{id}/ticket-types/{ticketTypeId}', resource: 'registrations' },
  deleteTicketType: { method: 'DELETE', path: '/api/v1/events/{id}/ticket-types/{ticketTypeId}', resource: 'registrations' },
  cancelRegistration: {
    method: 'DELETE',
    path: '/api/v1/events/{id}/registrations/{registrationId}',
    resource: 'registrations',
    publishable: true,
  },
  createCheckIn: { method: 'POST', path: '/api/v1/events/{id}/check-ins', resource: 'registrations' },
  undoCheckIn: { method: 'DELETE', path: '/api/v1/events/{id}/registrations/{registrationId}/check-in', resource: 'registrations' },
  listEventTypes: { method: 'GET', path: '/api/v1/event-types', resource: 'event_types', publishable: true },
  createEventType: { method: 'POST', path: '/api/v1/event-types', resource: 'event_types' },
  getEventType: { method: 'GET', path: '/api/v1/event-types/{id}', resource: 'event_types', publishable: true },
  updateEventType: { method: 'PATCH', path: '/api/v1/event-types/{id}', resource: 'event_types' },
  deleteEventType: { method: 'DELETE', path: '/api/v1/event-types/{id}', resource: 'event_types' },
  pingCalendarSync: { method: 'GET', path: '/api/v1/ping/calendar-sync', resource: null },
  authorizeCalendar: { method: 'GET', path: '/api/v1/calendar-connections/oauth/{provider}/authorize', resource: 'calendar_connections' },
  completeCalendarAuthorization: { method: 'GET', path: '/api/calendar-connections/oauth/{provider}/callback', resource: null },
  createCalendarConnection: { method: 'POST', path: '/api/v1/calendar-connections', resource: 'calendar_connections' },
  listCalendarConnections: { method: 'GET', path: '/api/v1/calendar-connections', resource: 'calendar_connections' },
  getCalendarConnection: { method: 'GET', path: '/api/v1/calendar-connections/{id}', resource: 'calendar_connections' },
  updateCalendarConnection: { method: 'PATCH', path: '/api/v1/calendar-connections/{id}', resource: 'calendar_connections' },
  deleteCalendarConnection: { method: 'DELETE', path: '/api/v1/calendar-connections/{id}', resource: 'calendar_connections' },
  syncCalendarConnection: { method: 'POST', path: '/api/v1/calendar-connections/{id}/sync', resource: 'calendar_connections' },
  createIcsFeed: { method: 'POST', path: '/api/v1/schedules/{id}/ics-feed', resource: 'calendar_connections' },
  deleteIcsFeed: { method: 'DELETE', path: '/api/v1/schedules/{id}/ics-feed', resource: 'calendar_connections' },
  pingWebhooks: { method: 'GET', path: '/api/v1/ping/webhooks', resource: null },
  listWebhookEndpoints: { method: 'GET', path: '/api/v1/webhook-endpoints', resource: 'webhooks' },
  createWebhookEndpoint: { method: 'POST', path: '/api/v1/webhook-endpoints', resource: 'webhooks' },
  getWebhookEndpoint: { method: 'GET', path: '/api/v1/webhook-endpoints/{id}', resource: 'webhooks' },
  updateWebhookEndpoint: { method: 'PATCH', path: '/api/v1/webhook-endpoints/{id}', resource: 'webhooks' },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/api/v1/webhook-endpoints/{id}', resource: 'webhooks' },
  getWebhookEndpointSecret: { method: 'GET', path: '/api/v1/webhook-endpoints/{id}/secret', resource: 'webhooks' },
  rotateWebhookEndpointSecret: { method: 'POST', path: '/api/v1/webhook-endpoints/{id}/secret/rotate', resource: 'webhooks' },
  listWebhookDeliveries: { method: 'GET', path: '/api/v1/webhook-endpoints/{id}/deliveries', resource: 'webhooks' },
  getWebhookDelivery: { method: 'GET', path: '/api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}', resource: 'webhooks' },
  retryWebhookDelivery: { method: 'POST', path: '/api/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry', resource: 'webhooks' },
  testWebhookEndpoint: { method: 'POST', path: '/api/v1/webhook-endpoints/{id}/test', resource: 'webhooks' },
  listChanges: { method: 'GET', path: '/api/v1/changes', resource: 'changes' },
  createApiKey: { method: 'POST', path: '/api/v1/api-keys', resource: null, secretOnly: true },
  listApiKeys: { method: 'GET', path: '/api/v1/api-keys', resource: null, secretOnly: true },
  getApiKey: { method: 'GET', path: '/api/v1/api-keys/{id}', resource: null, secretOnly: true },
  revokeApiKey: { method: 'DELETE', path: '/api/v1/api-keys/{id}', resource: null, secretOnly: true },
} as const satisfies Record<string, OperationRule>;

export type RuledOperationId = keyof typeof API_KEY_OPERATIONS;

const rules: Record<string, OperationRule> = API_KEY_OPERATIONS;

export function operationRuleOf(operationId: string): OperationRule | undefined {
  return Object.hasOwn(rules, operationId) ? rules[operationId] : undefined;
}

export function accessOf(method: OperationRule['method']): ApiKeyAccess {
  return method === 'GET' ? 'read' : 'write';
}

/** The kind and scopes of the key calling; absent kind: a secret key (an assertion of a gateway older than kinds). */
export interface KeyOfCaller {
  keyType?: ApiKeyType | undefined;
  scopes?: readonly ApiKeyScope[] | undefined;
}

/**
 * Why this key may not call this operation (the message of the 403 FORBIDDEN), or null when it may. An operation
 * without a rule is refused to every key but a secret one: a route nobody classified is not public by accident.
 */
export function keyRefusal(key: KeyOfCaller, operationId: string | undefined): string | null {
  const type = key.keyType ?? 'secret';
  if (type === 'secret') return null;
  const rule = operationId === undefined ? undefined : operationRuleOf(operationId);
  // API.md: restricted and publishable keys alike are told they cannot manage keys.
  if (rule?.secretOnly) return KEY_REFUSALS.manageKeys;
  if (type === 'publishable') return rule?.publishable ? null : KEY_REFUSALS.publishable;
  if (!rule) return KEY_REFUSALS.unclassified;
  if (rule.resource === null) return null;
  const access = accessOf(rule.method);
  return scopesAllow(key.scopes ?? [], rule.resource, access) ? null : KEY_REFUSALS.scope(rule.resource, access);
}
