import { z } from 'zod';
import { baseConfigSchema, developmentSecretsAllowed, secretRequired } from '@app/service-kit';

/** `keyId:base64-of-32-bytes[,…]`; the first key encrypts, every key decrypts (so old keys can be rotated out). */
const KEY_RING = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=$/;

const url = (fallback: string) => z.url({ message: 'must be a URL' }).default(fallback);
const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const configSchema = baseConfigSchema
  .safeExtend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3005),
    /** The gateway's public address: OAuth redirect URIs are `${PUBLIC_BASE_URL}/api/calendar-connections/oauth/<provider>/callback`. */
    PUBLIC_BASE_URL: url('http://127.0.0.1:3000'),
    GOOGLE_CLIENT_ID: optionalSecret,
    GOOGLE_CLIENT_SECRET: optionalSecret,
    GOOGLE_AUTH_URL: url('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: url('https://oauth2.googleapis.com/token'),
    /** Root of the Google APIs; Calendar v3 lives under `/calendar/v3`. */
    GOOGLE_API_URL: url('https://www.googleapis.com'),
    MICROSOFT_CLIENT_ID: optionalSecret,
    MICROSOFT_CLIENT_SECRET: optionalSecret,
    MICROSOFT_TENANT: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, { message: 'must be a tenant id or name' })
      .default('common'),
    /** Default `https://login.microsoftonline.com/<MICROSOFT_TENANT>/oauth2/v2.0/authorize`. */
    MICROSOFT_AUTH_URL: z.url().optional(),
    /** Default `https://login.microsoftonline.com/<MICROSOFT_TENANT>/oauth2/v2.0/token`. */
    MICROSOFT_TOKEN_URL: z.url().optional(),
    /** Microsoft Graph root including the version. */
    GRAPH_API_URL: url('https://graph.microsoft.com/v1.0'),
    CALENDAR_ENCRYPTION_KEYS: z.string().optional(),
    OAUTH_STATE_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
    CALENDAR_SYNC_INTERVAL_MS: z.coerce.number().int().min(1000).default(300_000),
    CALENDAR_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    /** How often each replica looks for connections that are due (a create or `/sync` wakes it at once). */
    CALENDAR_SYNC_POLL_MS: z.coerce.number().int().min(50).default(1000),
    /** A claimed sync must finish within this; after it another replica may take the connection over. */
    CALENDAR_SYNC_LEASE_MS: z.coerce.number().int().min(1000).default(120_000),
    /** First delay of the in-sync retries on 5xx and network errors (doubled per attempt, full jitter). */
    CALENDAR_RETRY_BASE_MS: z.coerce.number().int().min(1).default(500),
    /** A Retry-After up to this long is waited out inside the sync; a longer one ends the attempt and reschedules it. */
    CALENDAR_RETRY_MAX_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
    /** Time limit of one provider HTTP request. */
    CALENDAR_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  })
  .superRefine((config, ctx) => {
    const keys = config.CALENDAR_ENCRYPTION_KEYS;
    if (keys !== undefined && !keys.split(',').every((entry) => KEY_RING.test(entry.trim()))) {
      ctx.addIssue({
        code: 'custom',
        path: ['CALENDAR_ENCRYPTION_KEYS'],
        message: 'must be keyId:base64-of-32-bytes, comma-separated, first = current',
      });
    }
    if (developmentSecretsAllowed(config)) return;
    // Development falls back to fixed keys; anything else must never encrypt tokens with a key that is in the repository.
    for (const name of ['CALENDAR_ENCRYPTION_KEYS', 'OAUTH_STATE_SECRET'] as const) {
      if (config[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: secretRequired(name) });
    }
  });
export type Config = z.infer<typeof configSchema>;

/** Resolved provider endpoints: the tenant-dependent Microsoft defaults filled in. */
export function microsoftEndpoints(config: Config): { authUrl: string; tokenUrl: string } {
  const base = `https://login.microsoftonline.com/${config.MICROSOFT_TENANT}/oauth2/v2.0`;
  return { authUrl: config.MICROSOFT_AUTH_URL ?? `${base}/authorize`, tokenUrl: config.MICROSOFT_TOKEN_URL ?? `${base}/token` };
}
