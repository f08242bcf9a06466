import { z } from 'zod';
import { nameString, proseString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';
import { listQuerySchema } from './pagination.js';
import { strictFields } from './strict.js';

/** HTTP bodies, queries and records of webhook endpoints and their deliveries (webhooks service). */

/** The public event types an endpoint can subscribe to (API.md, Webhooks); internal ones are not offered. */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.updated',
  'booking.status_changed',
  'booking.rescheduled',
  'booking.cancelled',
  'schedule.created',
  'schedule.updated',
  'schedule.deactivated',
  'event.created',
  'event.updated',
  'event.deleted',
  'registration.created',
  'registration.cancelled',
  'registration.checked_in',
  'event_type.created',
  'event_type.updated',
  'event_type.deleted',
  'registration.promoted',
  'ticket_type.created',
  'ticket_type.updated',
  'ticket_type.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'media.created',
  'media.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'variant.created',
  'variant.updated',
  'variant.deleted',
  'inventory.reservation.committed',
  'calendar_connection.created',
  'calendar_connection.status_changed',
  'calendar_connection.removed',
  'api_key.created',
  'api_key.revoked',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `*` subscribes to every public type. */
export const ALL_WEBHOOK_EVENTS = '*';

const knownTypes = new Set<string>([ALL_WEBHOOK_EVENTS, ...WEBHOOK_EVENT_TYPES]);

/** `events`: public types or `*`; an unknown type is a 400 that names it. */
const eventsSchema = z
  .array(nameString(TEXT_LIMITS.eventType, 'must be a list of event types'), {
    message: 'must be a list of event types',
  })
  .min(1, { message: 'must name at least one event type' })
  .max(WEBHOOK_EVENT_TYPES.length + 1, { message: `must name at most ${WEBHOOK_EVENT_TYPES.length + 1} event types` })
  .superRefine((types, ctx) => {
    const unknown = types.find((type) => !knownTypes.has(type));
    if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `has unknown event type ${unknown}` });
  })
  .transform((types) => [...new Set(types)])
  .meta({ example: ['booking.created', 'booking.cancelled'] });

const endpointFields = {
  url: nameString(TEXT_LIMITS.url, 'must be a URL').meta({ example: 'https://example.com/webhooks' }),
  events: eventsSchema,
  description: proseString(TEXT_LIMITS.label).nullable(),
  enabled: z.boolean({ message: 'must be a boolean' }),
};

/** POST /api/v1/webhook-endpoints: `url` required; `events` defaults to `["*"]`, `enabled` to true. */
export const createWebhookEndpointBodySchema = z
  .strictObject(
    {
      url: endpointFields.url,
      events: endpointFields.events.optional(),
      description: endpointFields.description.optional(),
      enabled: endpointFields.enabled.optional(),
    },
    strictFields,
  )
  .meta({
    id: 'CreateWebhookEndpointBody',
    example: { url: 'https://example.com/webhooks', events: ['booking.created'], description: 'CRM sync' },
  });
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBodySchema>;

/** PATCH /api/v1/webhook-endpoints/{id}: any field; enabling again clears `disabled_reason`. */
export const updateWebhookEndpointBodySchema = z
  .strictObject(
    {
      url: endpointFields.url.optional(),
      events: endpointFields.events.optional(),
      description: endpointFields.description.optional(),
      enabled: endpointFields.enabled.optional(),
    },
    strictFields,
  )
  .meta({ id: 'UpdateWebhookEndpointBody', example: { enabled: true } });
export type UpdateWebhookEndpointBody = z.infer<typeof updateWebhookEndpointBodySchema>;

const endpointRecordFields = {
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why the service disabled it (every delivery failed for WEBHOOKS_DISABLE_AFTER_MS); null when enabled or disabled by PATCH. */
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

/** An endpoint as GET, PATCH and the list show it: never its secret. */
export const webhookEndpointRecordSchema = z.object(endpointRecordFields).meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointRecord = z.infer<typeof webhookEndpointRecordSchema>;

/** `whsec_` + base64 of random bytes: the Standard Webhooks signing secret. */
const secretSchema = z.string().meta({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });

/** The answer to a create: the record with its secret, shown here and by GET .../secret only. */
export const createdWebhookEndpointSchema = z
  .object({ ...endpointRecordFields, secret: secretSchema })
  .meta({ id: 'CreatedWebhookEndpoint' });
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpointSchema>;

export const webhookSecretSchema = z.object({ secret: secretSchema }).meta({ id: 'WebhookSecret' });

export const deletedWebhookEndpointSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** GET /api/v1/webhook-endpoints/{id}/deliveries: newest first, optionally of one status. */
export const listWebhookDeliveriesQuerySchema = listQuerySchema({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
});
export type ListWebhookDeliveriesQuery = z.infer<typeof listWebhookDeliveriesQuerySchema>;

const deliveryFields = {
  id: z.uuid(),
  /** The domain event's id: the `webhook-id` header of every attempt. */
  event_id: z.uuid(),
  event_type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  last_response_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
};

export const webhookDeliverySchema = z.object(deliveryFields).meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** One attempt: when, the receiver's status (null when none came), the error (capped), how long it took. Never the body. */
export const webhookAttemptSchema = z.object({
  at: z.string(),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliveryDetailSchema = z
  .object({ ...deliveryFields, attempts_log: z.array(webhookAttemptSchema) })
  .meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

/** `/deliveries/{deliveryId}` routes. */
export const deliveryParamsSchema = z.object({ id: z.string(), deliveryId: z.string() });
