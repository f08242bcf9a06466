import { z } from 'zod';
import { API_KEY_TYPES, isApiKeyScope, isUuid, type ApiKeyScope, type ApiKeyType } from '@app/contracts';

/**
 * The assertion is a JWT of the gateway (`iss`) for one service (`aud`: the service's name, so an assertion minted for
 * bookings is refused by catalog), an HMAC-SHA256 (`HS256`) under a secret only the gateway and that service hold.
 */
export const CALLER_ASSERTION_ISSUER = 'gateway';
export const CALLER_ASSERTION_ALGORITHM = 'HS256';
/** At most 60 s (ARCHITECTURE.md): long enough for the gateway to reuse one for many requests of a key. */
export const CALLER_ASSERTION_TTL_SECONDS = 60;

/**
 * Who the gateway says is asking: the organization of the verified API key and its time zone (both absent for an
 * anonymous call of a public route), the key's id, its kind and (a restricted key's) scopes. The kind travels so that
 * a service refuses a publishable or restricted key on its own too: the gateway is not the only check (API.md
 * "Keys"). Nothing per request is in it (the request id travels beside it, in `x-request-id`), so the gateway can
 * send one assertion with every request of a key to a service until shortly before it expires.
 */
export interface AssertedCaller {
  organizationId?: string;
  timezone?: string;
  apiKeyId?: string;
  keyType?: ApiKeyType;
  scopes?: ApiKeyScope[];
}

/** The claims of an assertion beyond `iss`, `aud`, `iat` and `exp` (snake case, as JWT claims usually are). */
export function callerAssertionClaims(caller: AssertedCaller): Record<string, string | string[]> {
  return {
    ...(caller.organizationId === undefined ? {} : { organization_id: caller.organizationId }),
    ...(caller.timezone === undefined ? {} : { timezone: caller.timezone }),
    ...(caller.apiKeyId === undefined ? {} : { api_key_id: caller.apiKeyId }),
    ...(caller.keyType === undefined ? {} : { key_type: caller.keyType }),
    ...(caller.scopes === undefined ? {} : { scopes: caller.scopes }),
  };
}

const claimsSchema = z.object({
  organization_id: z
    .string()
    .refine((id) => isUuid(id))
    .optional(),
  timezone: z.string().min(1).optional(),
  api_key_id: z.string().min(1).optional(),
  key_type: z.enum(API_KEY_TYPES).optional(),
  scopes: z
    .array(z.string().refine((scope) => isApiKeyScope(scope)))
    .max(64)
    .optional(),
});

/**
 * The caller of verified claims; null when they do not have the assertion's shape (a timezone or key without
 * organization, scopes on a key that is not restricted).
 */
export function assertedCallerOf(payload: unknown): AssertedCaller | null {
  const parsed = claimsSchema.safeParse(payload);
  if (!parsed.success) return null;
  const { organization_id: organizationId, timezone, api_key_id: apiKeyId, key_type: keyType, scopes } = parsed.data;
  if (organizationId === undefined && (timezone !== undefined || apiKeyId !== undefined || keyType !== undefined)) return null;
  if ((scopes !== undefined) !== (keyType === 'restricted')) return null;
  return {
    ...(organizationId === undefined ? {} : { organizationId: organizationId.toLowerCase() }),
    ...(timezone === undefined ? {} : { timezone }),
    ...(apiKeyId === undefined ? {} : { apiKeyId }),
    ...(keyType === undefined ? {} : { keyType }),
    ...(scopes === undefined ? {} : { scopes: scopes as ApiKeyScope[] }),
  };
}
