import {
  dataEnvelope,
  deliveryParamsSchema,
  errorResponses,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listWebhookDeliveriesQuerySchema,
  webhookDeliveryDetailSchema,
  webhookDeliverySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { getDelivery, listDeliveries, retryDelivery, sendTest } from '../use-cases/deliveries.use-case.js';

const tags = ['webhooks'];

/** /api/v1/webhook-endpoints/{id}/deliveries and /test: what was sent to an endpoint, and sending again. */
export function registerDeliveryRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/webhook-endpoints/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List an endpoint's deliveries, newest first",
        tags,
        params: idParamsSchema,
        querystring: listWebhookDeliveriesQuerySchema,
        response: { 200: listEnvelope(webhookDeliverySchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { query } = request;
      const { items, meta } = await listDeliveries(ctx, callerOf(request), { id: request.params.id, query });
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/webhook-endpoints/:id/deliveries/:deliveryId',
    {
      schema: {
        operationId: 'getWebhookDelivery',
        summary: 'Get a delivery with its attempts (response bodies are not kept)',
        tags,
        params: deliveryParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(webhookDeliveryDetailSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getDelivery(ctx, callerOf(request), request.params)),
  );

  app.post(
    '/api/v1/webhook-endpoints/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery again now, with the same webhook-id',
        tags,
        params: deliveryParamsSchema,
        response: { 202: dataEnvelope(webhookDeliverySchema), ...errorResponses('NOT_FOUND', 'ENDPOINT_DISABLED') },
      },
    },
    async (request, reply) => {
      const delivery = await retryDelivery(ctx, callerOf(request), request.params);
      void reply.code(202);
      return { data: delivery };
    },
  );

  app.post(
    '/api/v1/webhook-endpoints/:id/test',
    {
      schema: {
        operationId: 'testWebhookEndpoint',
        summary: 'Send a webhook.test event with {endpoint_id} to the endpoint, whatever its events filter',
        tags,
        params: idParamsSchema,
        response: { 202: dataEnvelope(webhookDeliverySchema), ...errorResponses('NOT_FOUND', 'ENDPOINT_DISABLED') },
      },
    },
    async (request, reply) => {
      const delivery = await sendTest(ctx, callerOf(request), request.params.id);
      void reply.code(202);
      return { data: delivery };
    },
  );
}
