import { z } from 'zod';
import { nameString } from './safe-text.js';
import { TEXT_LIMITS } from './text-limits.js';
import { uuidSchema, zoneNameSchema } from './scalars.js';
import { strictFields } from './strict.js';

/** POST /admin/v1/organizations */
export const createOrganizationBodySchema = z
  .strictObject(
    {
      name: nameString(TEXT_LIMITS.name).trim().min(1, { message: 'is required' }),
      timezone: zoneNameSchema.optional(),
    },
    strictFields,
  )
  .meta({ id: 'CreateOrganizationBody', example: { name: 'Acme Studio', timezone: 'Europe/Berlin' } });

export const organizationSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  timezone: z.string(),
  created_at: z.string(),
});

/** The first API key is shown once, in the creation response. */
export const createdOrganizationSchema = organizationSchema.extend({ api_key: z.string() });

/** POST /admin/v1/organizations/{id}/api-keys */
export const createApiKeyBodySchema = z
  .strictObject(
    {
      name: nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' }).optional(),
    },
    strictFields,
  )
  .meta({ id: 'CreateApiKeyBody', example: { name: 'booking page' } });

export const createdApiKeySchema = z.object({
  id: uuidSchema,
  key: z.string(),
  name: z.string().nullable(),
  created_at: z.string(),
});

export const revokedApiKeySchema = z.object({ id: uuidSchema, revoked: z.literal(true) });

/** What the gateway tells a service about the caller: trusted headers it stamps on every proxied request. */
export const ORGANIZATION_HEADER = 'x-organization-id';
export const ORGANIZATION_TIMEZONE_HEADER = 'x-organization-timezone';
/**
 * The caller assertion the gateway signs for every proxied request (a compact JWS, EdDSA): services take the
 * organization only from it, never from the headers above, so reaching a service's port is not enough.
 */
export const CALLER_ASSERTION_HEADER = 'x-caller-assertion';
export const REQUEST_ID_HEADER = 'x-request-id';
