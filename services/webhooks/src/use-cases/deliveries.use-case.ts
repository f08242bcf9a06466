import { randomUUID } from 'node:crypto';
import type { ListMeta, ListWebhookDeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail } from '@app/contracts';
import { AppError, listPage, notFound, recordId, type Caller, type Versioned } from '@app/service-kit';
import {
  DELIVERY_LIST,
  findDelivery,
  insertDelivery,
  listDeliveries as listDeliveryRows,
  requeueDelivery,
} from '../db/delivery.repository.js';
import { deliveryBody } from '../domain/public-events.js';
import { deliveryDetailRecord, deliveryRecord } from '../domain/webhook.record.js';
import type { UseCaseContext } from './context.js';
import { ownEndpoint } from './endpoints.use-case.js';

const DELIVERY = 'Webhook delivery';

function refuseDisabled(endpoint: { enabled: boolean }): void {
  if (!endpoint.enabled) throw new AppError('ENDPOINT_DISABLED', 'Webhook endpoint is disabled: enable it first');
}

export async function listDeliveries(
  ctx: UseCaseContext,
  caller: Caller,
  { id, query }: { id: string; query: ListWebhookDeliveriesQuery },
): Promise<{ items: WebhookDelivery[]; meta: ListMeta }> {
  const endpoint = await ownEndpoint(ctx, caller, id);
  const filter = { organizationId: caller.organizationId, endpointId: endpoint.id, status: query.status };
  const page = listPage(
    DELIVERY_LIST,
    { organizationId: caller.organizationId, filters: { endpointId: endpoint.id, status: query.status } },
    query,
  );
  const { rows, meta } = await listDeliveryRows(ctx, filter, page);
  return { items: rows.map(deliveryRecord), meta };
}

export async function getDelivery(
  ctx: UseCaseContext,
  caller: Caller,
  { id, deliveryId }: { id: string; deliveryId: string },
): Promise<Versioned<WebhookDeliveryDetail>> {
  const endpoint = await ownEndpoint(ctx, caller, id);
  const delivery = await findDelivery(ctx.prisma, caller.organizationId, endpoint.id, recordId(deliveryId, DELIVERY));
  if (!delivery) throw notFound(DELIVERY);
  return { record: deliveryDetailRecord(delivery), version: delivery.version };
}

/** Sends the delivery again now, with the same webhook-id (its event's id). */
export async function retryDelivery(
  ctx: UseCaseContext,
  caller: Caller,
  { id, deliveryId }: { id: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, caller, id);
  const found = await findDelivery(ctx.prisma, caller.organizationId, endpoint.id, recordId(deliveryId, DELIVERY));
  if (!found) throw notFound(DELIVERY);
  refuseDisabled(endpoint);
  const delivery = await requeueDelivery(ctx.prisma, caller.organizationId, endpoint.id, found.id);
  if (!delivery) throw notFound(DELIVERY); // deleted meanwhile
  ctx.wakeDeliveries();
  return deliveryRecord(delivery);
}

/** A `webhook.test` event with `{endpoint_id}`, to this endpoint whatever its `events` filter. */
export async function sendTest(ctx: UseCaseContext, caller: Caller, rawId: string): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(ctx, caller, rawId);
  refuseDisabled(endpoint);
  const event = { id: randomUUID(), type: 'webhook.test', occurred_at: ctx.now().toISOString(), data: { endpoint_id: endpoint.id } };
  const delivery = await insertDelivery(ctx.prisma, endpoint.id, {
    id: event.id,
    organizationId: caller.organizationId,
    type: event.type,
    body: deliveryBody(event),
  });
  ctx.wakeDeliveries();
  return deliveryRecord(delivery);
}
