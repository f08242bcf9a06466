import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  createAdminApiKeyBodySchema,
  createdApiKeySchema,
  createdOrganizationSchema,
  createOrganizationBodySchema,
  dataEnvelope,
  errorResponses,
  isUuid,
  revokedApiKeySchema,
} from '@app/contracts';
import { notFound, type ServiceApp } from '@app/service-kit';
import { requireAdmin } from '../auth/admin-token.js';
import type { AuthFailures } from '../auth/auth-failures.js';
import type { KeyCache } from '../auth/key-cache.js';
import { newApiKeyOf } from './api-keys.route.js';
import type { IdentityRepository } from '../identity/identity.repository.js';

const idParams = z.object({ id: z.string() });

/** Admin API of API.md: organizations and their keys, behind ADMIN_TOKEN. */
export function registerAdminRoutes(
  app: ServiceApp,
  deps: { identity: IdentityRepository; cache: KeyCache; failures: AuthFailures; adminToken: string },
): void {
  const security = [{ adminToken: [] }];

  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => requireAdmin(request, reply, deps.adminToken, deps.failures);

  app.post(
    '/admin/v1/organizations',
    {
      onRequest,
      schema: {
        operationId: 'createOrganization',
        summary: 'Create an organization and its first API key (shown once)',
        tags: ['admin'],
        security,
        body: createOrganizationBodySchema,
        response: { 201: dataEnvelope(createdOrganizationSchema), ...errorResponses('UNAUTHORIZED') },
      },
    },
    async (request, reply) => {
      const org = await deps.identity.createOrganization(request.body.name, request.body.timezone ?? 'UTC');
      void reply.code(201);
      return { data: { id: org.id, name: org.name, timezone: org.timezone, created_at: org.createdAt.toISOString(), api_key: org.apiKey } };
    },
  );

  app.post(
    '/admin/v1/organizations/:id/api-keys',
    {
      onRequest,
      schema: {
        operationId: 'adminCreateApiKey',
        summary: 'Create another API key for an organization (shown once)',
        tags: ['admin'],
        security,
        params: idParams,
        description: 'The body of `POST /api/v1/api-keys`, `name` optional; `type` defaults to secret.',
        body: createAdminApiKeyBodySchema.nullish(), // no body at all is fine too: an unnamed secret key
        response: { 201: dataEnvelope(createdApiKeySchema), ...errorResponses('UNAUTHORIZED', 'NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isUuid(id) || !(await deps.identity.organizationExists(id))) throw notFound('Organization');
      const { record, key } = await deps.identity.createApiKey(id, newApiKeyOf(request.body));
      void reply.code(201);
      return { data: { ...record, key } };
    },
  );

  app.delete(
    '/admin/v1/api-keys/:id',
    {
      onRequest,
      schema: {
        operationId: 'adminRevokeApiKey',
        summary: 'Revoke an API key (refused everywhere within 5 s)',
        tags: ['admin'],
        security,
        params: idParams,
        response: { 200: dataEnvelope(revokedApiKeySchema), ...errorResponses('UNAUTHORIZED', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isUuid(id) || !(await deps.identity.revokeApiKey(id))) throw notFound('API key');
      deps.cache.clear();
      return { data: { id, revoked: true as const } };
    },
  );
}
