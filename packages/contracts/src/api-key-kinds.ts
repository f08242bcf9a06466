import { z } from 'zod';

/** The three kinds of key of API.md "Keys": each looks like its prefix followed by random characters. */
export const API_KEY_TYPES = ['secret', 'restricted', 'publishable'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];
export const apiKeyTypeSchema = z.enum(API_KEY_TYPES);

export const API_KEY_PREFIXES: Record<ApiKeyType, string> = { secret: 'sk_', restricted: 'rk_', publishable: 'pk_' };

/** The resources a restricted key's scopes name; `<resource>:write` includes `<resource>:read`. */
export const API_KEY_SCOPE_RESOURCES = [
  'schedules',
  'bookings',
  'holds',
  'event_types',
  'events',
  'registrations',
  'products',
  'media',
  'categories',
  'inventory',
  'calendar_connections',
  'webhooks',
  'changes',
] as const;
export type ApiKeyScopeResource = (typeof API_KEY_SCOPE_RESOURCES)[number];
export type ApiKeyAccess = 'read' | 'write';
export type ApiKeyScope = `${ApiKeyScopeResource}:${ApiKeyAccess}`;

export const API_KEY_SCOPES = API_KEY_SCOPE_RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]) as ApiKeyScope[];

const knownScopes = new Set<string>(API_KEY_SCOPES);
export function isApiKeyScope(value: string): value is ApiKeyScope {
  return knownScopes.has(value);
}

/** True when `scopes` let a key do `access` on `resource` (write includes read). */
export function scopesAllow(scopes: readonly string[], resource: ApiKeyScopeResource, access: ApiKeyAccess): boolean {
  return scopes.includes(`${resource}:write`) || (access === 'read' && scopes.includes(`${resource}:read`));
}

/** API.md's messages of the 403 FORBIDDEN refusals of a key's kind. */
export const KEY_REFUSALS = {
  publishable: 'Publishable keys cannot call this operation',
  manageKeys: 'This key cannot manage API keys',
  scope: (resource: ApiKeyScopeResource, access: ApiKeyAccess) => `This key lacks the ${resource}:${access} scope`,
  origin: 'This key may not be used from this origin',
  /** An operation missing from API_KEY_OPERATIONS (a test keeps the table complete): only secret keys call it. */
  unclassified: 'Only secret keys can call this operation',
} as const;

/**
 * The query of a publishable key's call on one booking or registration: its `client_secret` (any other caller may
 * send none). A wrong or missing one is a 404, as for a record of another organization.
 */
export const clientSecretQuerySchema = z.strictObject({
  client_secret: z.string().max(200).optional().describe("The record's `client_secret` (from its 201): required with a publishable key"),
});
