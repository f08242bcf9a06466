import { NATS_TOPOLOGY, WEBHOOK_TYPE_OF_SUBJECT, webhookEventOf, type EventContract, type EventEnvelope } from '@app/contracts';
import { consumerTask, eventHandler, type BackgroundTask, type Bus, type Queryable, type RetrySchedule } from '@app/service-kit';
import type pg from 'pg';
import type { z } from 'zod';
import { fanOut, organizationsWithEnabledEndpoints } from '../db/delivery.repository.js';
import { deliveryBody } from '../domain/public-events.js';

/**
 * One durable consumer per producing stream (names and streams from the topology, which its NATS user's rights
 * are generated from). Each event offered publicly is fanned out into deliveries in the transaction that records it
 * in the inbox; internal events of the same streams (calendar.busy.updated) are acked untouched, and so are the events
 * of organizations without an enabled endpoint (most of them): no transaction, no inbox row, one read per batch.
 */
export function domainEventConsumers(bus: Bus, pool: pg.Pool, wakeDeliveries: () => void, retry: RetrySchedule): BackgroundTask[] {
  return Object.values(NATS_TOPOLOGY.webhooks.consumes).map((consumer) =>
    consumerTask(bus, {
      ...consumer,
      handlers: consumer.stream.events
        .filter((contract) => WEBHOOK_TYPE_OF_SUBJECT[contract.subject])
        .map((contract) => fanOutHandler(contract, wakeDeliveries)),
      pool,
      retry,
      organizationsConcerned: (organizationIds) => organizationsWithEnabledEndpoints(pool, organizationIds),
    }),
  );
}

function fanOutHandler(contract: EventContract<z.ZodType>, wakeDeliveries: () => void) {
  return eventHandler(contract, async (event: EventEnvelope, tx: Queryable) => {
    // Every domain event's data is an object (the contracts' z.object schemas); the handlers are the public types'.
    const shown = webhookEventOf(contract.subject, event.data as Record<string, unknown>);
    if (!shown) return;
    const body = deliveryBody({ id: event.id, occurred_at: event.occurred_at, ...shown });
    const created = await fanOut(tx, { id: event.id, organizationId: event.organization_id, type: shown.type, body });
    // The rows are visible once the consumer commits, just after this returns: a short delay saves waiting a poll.
    if (created > 0) setTimeout(wakeDeliveries, 20).unref();
  });
}
