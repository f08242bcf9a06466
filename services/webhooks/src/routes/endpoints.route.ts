import {
  createdWebhookEndpointSchema,
  createWebhookEndpointBodySchema,
  dataEnvelope,
  deletedWebhookEndpointSchema,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  paginationQuerySchema,
  updateWebhookEndpointBodySchema,
  webhookEndpointRecordSchema,
  webhookSecretSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  getSecret,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../use-cases/endpoints.use-case.js';

const tags = ['webhooks'];

/** /api/v1/webhook-endpoints: URLs that receive the organization's domain events, signed. */
export function registerEndpointRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/webhook-endpoints',
    {
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints (without their secrets)',
        tags,
        querystring: paginationQuerySchema,
        response: { 200: listEnvelope(webhookEndpointRecordSchema) },
      },
    },
    async (request) => {
      const { query } = request;
      const { items, meta } = await listEndpoints(ctx, callerOf(request), query);
      return { data: items, meta };
    },
  );

  app.post(
    '/api/v1/webhook-endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint; the answer carries its signing secret',
        description:
          'The URL must be https (http only while WEBHOOKS_ALLOW_HTTP) and a public address unless WEBHOOKS_ALLOW_PRIVATE_TARGETS: `url must be a public http(s) address` otherwise.',
        tags,
        body: createWebhookEndpointBodySchema,
        response: { 201: dataEnvelope(createdWebhookEndpointSchema) },
      },
    },
    async (request, reply) => {
      const endpoint = await createEndpoint(ctx, callerOf(request), request.body);
      void reply.code(201);
      return { data: endpoint };
    },
  );

  app.get(
    '/api/v1/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint (without its secret)',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(webhookEndpointRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getEndpoint(ctx, callerOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint; enabling it again clears disabled_reason',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateWebhookEndpointBodySchema,
        response: { 200: dataEnvelope(webhookEndpointRecordSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const change = { id: request.params.id, patch: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateEndpoint(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint and its deliveries',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(deletedWebhookEndpointSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteEndpoint(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );

  app.get(
    '/api/v1/webhook-endpoints/:id/secret',
    {
      schema: {
        operationId: 'getWebhookEndpointSecret',
        summary: "Get a webhook endpoint's signing secret",
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(webhookSecretSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await getSecret(ctx, callerOf(request), request.params.id) }),
  );

  app.post(
    '/api/v1/webhook-endpoints/:id/secret/rotate',
    {
      schema: {
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Rotate the signing secret; the old one keeps signing too (a second signature) for 24 h',
        tags,
        params: idParamsSchema,
        response: { 200: dataEnvelope(webhookSecretSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await rotateSecret(ctx, callerOf(request), request.params.id) }),
  );
}
