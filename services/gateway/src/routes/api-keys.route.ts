import {
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  dataEnvelope,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  paginationQuerySchema,
  revokedApiKeySchema,
  type CreateAdminApiKeyBody,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, listPage, notFound, recordId, type ServiceApp } from '@app/service-kit';
import type { KeyCache } from '../auth/key-cache.js';
import { API_KEY_LIST, apiKeyVersion, type IdentityRepository, type NewApiKey } from '../identity/identity.repository.js';

const tags = ['api-keys'];
const API_KEY = 'API key';

/** A validated creation body as the repository takes it: the kind (secret by default) and only its own limits. */
export function newApiKeyOf(body: CreateAdminApiKeyBody | null | undefined): NewApiKey {
  const type = body?.type ?? 'secret';
  return {
    name: body?.name ?? null,
    type,
    scopes: type === 'restricted' ? (body?.scopes ?? []) : null,
    allowedOrigins: type === 'publishable' ? (body?.allowed_origins ?? []) : null,
  };
}

/**
 * /api/v1/api-keys: a secret key manages its organization's keys (API.md "Keys"). Served by the gateway itself;
 * restricted and publishable keys are refused before these run (auth/key-kind.ts, by API_KEY_OPERATIONS' secretOnly).
 */
export function registerApiKeyRoutes(app: ServiceApp, deps: { identity: IdentityRepository; cache: KeyCache }): void {
  app.post(
    '/api/v1/api-keys',
    {
      schema: {
        operationId: 'createApiKey',
        summary: 'Create an API key of the organization (the key is shown once, in this answer)',
        description: '`type` is secret (default), restricted (with `scopes`) or publishable (with `allowed_origins`). Secret keys only.',
        tags,
        body: createApiKeyBodySchema,
        response: { 201: dataEnvelope(createdApiKeySchema), ...errorResponses('FORBIDDEN') },
      },
    },
    async (request, reply) => {
      const { record, key } = await deps.identity.createApiKey(callerOf(request).organizationId, newApiKeyOf(request.body));
      void reply.code(201);
      return { data: { ...record, key } };
    },
  );

  app.get(
    '/api/v1/api-keys',
    {
      schema: {
        operationId: 'listApiKeys',
        summary: "List the organization's live API keys (never the keys themselves)",
        tags,
        querystring: paginationQuerySchema,
        response: { 200: listEnvelope(apiKeySchema), ...errorResponses('FORBIDDEN') },
      },
    },
    async (request) => {
      const { organizationId } = callerOf(request);
      const { items, meta } = await deps.identity.listApiKeys(organizationId, listPage(API_KEY_LIST, { organizationId }, request.query));
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/api-keys/:id',
    {
      schema: {
        operationId: 'getApiKey',
        summary: 'Get a live API key (never the key itself)',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(apiKeySchema), ...errorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const record = await deps.identity.findApiKey(callerOf(request).organizationId, recordId(request.params.id, API_KEY));
      if (!record) throw notFound(API_KEY);
      return answerRecord(request, reply, { record, version: apiKeyVersion(record) });
    },
  );

  app.delete(
    '/api/v1/api-keys/:id',
    {
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key (refused everywhere within 5 s)',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(revokedApiKeySchema), ...errorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const id = recordId(request.params.id, API_KEY);
      if (!(await deps.identity.revokeApiKey(id, callerOf(request).organizationId, ifMatchOf(request)))) throw notFound(API_KEY);
      deps.cache.clear(); // at once on this replica; the others within the cache's TTL
      return { data: { id, revoked: true as const } };
    },
  );
}
