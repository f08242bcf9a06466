import type {
  CreatedWebhookEndpoint,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryStatus,
  WebhookEndpointRecord,
} from '@app/contracts';
import { isoInstant } from '@app/service-kit';
import type { DeliveryRow } from '../db/delivery.repository.js';
import type { EndpointRow } from '../db/endpoint.repository.js';

const instantOrNull = (instant: Date | null): string | null => (instant ? isoInstant(instant) : null);

/*
 * The ETags of endpoints and deliveries rise only when a column shown here changes (the triggers of migrations/0004
 * list them): a field added to one of these records is added there.
 */

/** An endpoint as GET, PATCH and the list show it: never its secret. */
export function endpointRecord(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    created_at: isoInstant(row.createdAt),
    updated_at: isoInstant(row.updatedAt),
  };
}

/** The answer to a create, the one record that carries the secret. */
export function createdEndpointRecord(row: EndpointRow): CreatedWebhookEndpoint {
  return { ...endpointRecord(row), secret: row.secret };
}

/** A delivery as the list, a retry and a test show it. */
export function deliveryRecord(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? instantOrNull(row.nextAttemptAt) : null,
    last_attempt_at: instantOrNull(row.lastAttemptAt),
    last_response_status: row.lastResponseStatus,
    last_error: row.lastError,
    created_at: isoInstant(row.createdAt),
  };
}

/** One delivery as its GET shows it, with the log of its attempts. */
export function deliveryDetailRecord(row: DeliveryRow): WebhookDeliveryDetail {
  return { ...deliveryRecord(row), attempts_log: row.attemptsLog as unknown as WebhookAttempt[] };
}
