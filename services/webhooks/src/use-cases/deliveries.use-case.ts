import { randomUUID } from 'node:crypto';
import { listMeta, type ListMeta, type WebhookDelivery, type WebhookDeliveryDetail } from '@app/contracts';
import { AppError, notFound, recordId, type Caller, type Versioned } from '@app/service-kit';
import { findDelivery, insertDelivery, listDeliveries as listDeliveryRows, requeueDelivery } from '../db/delivery.repository.js';
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
  { id, query }: { id: string; query: { status?: string; limit: number; offset: number } },
): Promise<{ items: WebhookDelivery[]; meta: ListMeta }> {
  const endpoint = await ownEndpoint(ctx, caller, id);
  const { rows, total } = await listDeliveryRows(ctx.prisma, caller.organizationId, endpoint.id, query);
  return { items: rows.map(deliveryRecord), meta: listMeta(total, query.limit, query.offset) };
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
