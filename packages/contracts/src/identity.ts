import { z } from 'zod';
import { API_KEY_SCOPES, apiKeyTypeSchema, isApiKeyScope, type ApiKeyScope, type ApiKeyType } from './api-key-kinds.js';
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

/** An entry of a publishable key's `allowed_origins`: `https://host[:port]`, `http://localhost[:port]` (or the single `*`). */
const ORIGIN_SHAPE =
  /^(https:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|http:\/\/localhost)(:([1-9][0-9]{0,4}))?$/i;
export const ANY_ORIGIN = '*';
const MAX_ALLOWED_ORIGINS = 20;

function isOriginEntry(value: string): boolean {
  const match = ORIGIN_SHAPE.exec(value);
  return match !== null && (match[7] === undefined || Number(match[7]) <= 65535);
}

const scopesField = z
  .array(z.string({ message: 'must be a list of scopes' }).max(64), { message: 'must be a list of scopes' })
  .max(API_KEY_SCOPES.length, { message: `must name at most ${API_KEY_SCOPES.length} scopes` })
  .superRefine((scopes, ctx) => {
    const unknown = scopes.find((scope) => !isApiKeyScope(scope));
    if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `has unknown scope ${unknown}` });
  })
  .transform((scopes) => [...new Set(scopes)] as ApiKeyScope[])
  .nullable()
  .meta({ example: ['bookings:read', 'schedules:write'] });

const originsField = z
  .array(z.string({ message: 'must be a list of origins' }).max(TEXT_LIMITS.url), { message: 'must be a list of origins' })
  .max(MAX_ALLOWED_ORIGINS, { message: `must list at most ${MAX_ALLOWED_ORIGINS} origins` })
  .superRefine((origins, ctx) => {
    if (origins.includes(ANY_ORIGIN) && origins.length > 1) {
      ctx.addIssue({ code: 'custom', message: 'must be the single entry * or a list of origins' });
      return;
    }
    const bad = origins.find((origin) => origin !== ANY_ORIGIN && !isOriginEntry(origin));
    if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `has ${bad}, not https://host[:port] or http://localhost[:port]` });
  })
  .nullable()
  .meta({ example: ['https://shop.example.com', 'http://localhost:5173'] });

/**
 * The kinds' rules of API.md "Keys": scopes (at least one) only on a restricted key and required there;
 * allowed_origins (1–20) only on a publishable key and required there.
 */
function kindRules(
  body: { type?: ApiKeyType | undefined; scopes?: unknown[] | null | undefined; allowed_origins?: unknown[] | null | undefined },
  ctx: z.RefinementCtx,
): void {
  const type = body.type ?? 'secret';
  const hasScopes = body.scopes !== undefined && body.scopes !== null;
  const hasOrigins = body.allowed_origins !== undefined && body.allowed_origins !== null;
  if (type === 'restricted' && (!hasScopes || body.scopes!.length === 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['scopes'],
      message: hasScopes ? 'must name at least one scope' : 'is required for a restricted key',
    });
  } else if (type !== 'restricted' && hasScopes) {
    ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'is only for restricted keys' });
  }
  if (type === 'publishable' && (!hasOrigins || body.allowed_origins!.length === 0)) {
    ctx.addIssue({
      code: 'custom',
      path: ['allowed_origins'],
      message: hasOrigins ? 'must list at least one origin' : 'is required for a publishable key',
    });
  } else if (type !== 'publishable' && hasOrigins) {
    ctx.addIssue({ code: 'custom', path: ['allowed_origins'], message: 'is only for publishable keys' });
  }
}

const keyName = nameString(TEXT_LIMITS.name).trim().min(1, { message: 'is required' });

/** POST /api/v1/api-keys: `{name, type?, scopes?, allowed_origins?}` (type defaults to secret). */
export const createApiKeyBodySchema = z
  .strictObject(
    { name: keyName, type: apiKeyTypeSchema.optional(), scopes: scopesField.optional(), allowed_origins: originsField.optional() },
    strictFields,
  )
  .superRefine(kindRules)
  .meta({ id: 'CreateApiKeyBody', example: { name: 'booking page', type: 'publishable', allowed_origins: ['https://shop.example.com'] } });
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** POST /admin/v1/organizations/{id}/api-keys: the same body, `name` optional as it always was there. */
export const createAdminApiKeyBodySchema = z
  .strictObject(
    {
      name: nameString(TEXT_LIMITS.name).trim().min(1, { message: 'must not be empty' }).optional(),
      type: apiKeyTypeSchema.optional(),
      scopes: scopesField.optional(),
      allowed_origins: originsField.optional(),
    },
    strictFields,
  )
  .superRefine(kindRules)
  .meta({ id: 'CreateAdminApiKeyBody', example: { name: 'reporting', type: 'restricted', scopes: ['bookings:read'] } });
export type CreateAdminApiKeyBody = z.infer<typeof createAdminApiKeyBodySchema>;

/** A key as `GET /api/v1/api-keys/{id}` shows it: never the key itself. */
export const apiKeySchema = z
  .object({
    id: uuidSchema,
    type: apiKeyTypeSchema,
    name: z.string().nullable(),
    prefix: z.string().describe("The key's first 12 characters"),
    scopes: z.array(z.string()).nullable(),
    allowed_origins: z.array(z.string()).nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable().describe('Updated at most once a minute'),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyRecord = z.infer<typeof apiKeySchema>;

/** The 201 of a key's creation: the record and the key, shown this once. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() }).meta({ id: 'CreatedApiKey' });

export const revokedApiKeySchema = z.object({ id: uuidSchema, revoked: z.literal(true) });

/** What the gateway tells a service about the caller: trusted headers it stamps on every proxied request. */
export const ORGANIZATION_HEADER = 'x-organization-id';
export const ORGANIZATION_TIMEZONE_HEADER = 'x-organization-timezone';
/**
 * The caller assertion the gateway sends with every proxied request (a compact JWS, HS256 under a secret it shares with
 * the target service only, that service as audience): services take the organization only from it, never from the
 * headers above, so reaching a service's port is not enough.
 */
export const CALLER_ASSERTION_HEADER = 'x-caller-assertion';
export const REQUEST_ID_HEADER = 'x-request-id';
