import { z } from 'zod';
import { baseConfigSchema, callerAssertionKeyIdSchema, callerAssertionPrivateKeySchema } from '@app/service-kit';

/** Comma-separated upstream URLs of one service (several = replicas, balanced round-robin). */
const upstreams = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim().replace(/\/$/, ''))
        .filter(Boolean),
    )
    .pipe(z.array(z.url()).min(1));

export const configSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Bearer token of the admin endpoints. Required (16+ characters) in production; `dev-admin-token` otherwise. */
    ADMIN_TOKEN: z.string().min(1).optional(),
    BOOKINGS_URL: upstreams('http://127.0.0.1:3001'),
    SCHEDULING_URL: upstreams('http://127.0.0.1:3002'),
    CATALOG_URL: upstreams('http://127.0.0.1:3003'),
    EVENTS_URL: upstreams('http://127.0.0.1:3004'),
    CALENDAR_SYNC_URL: upstreams('http://127.0.0.1:3005'),
    /** Requests per key (or per IP for public routes) per window. */
    RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
    /** How long a key lookup is cached; at most 5 s so a revoked key is refused within 5 s. */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(5000),
    /** Largest declared body the gateway proxies (JSON APIs: 1 MB). */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(1024 * 1024),
    /** Largest declared multipart upload: the catalog's 10 MB file limit plus room for the form around it. */
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(10 * 1024 * 1024 + 64 * 1024),
    /**
     * Origins that may read the API from a browser (comma-separated): the public slots answer any of them (`*`,
     * the default, is every origin); `/api/v1/*` answers only origins listed by name.
     */
    CORS_ORIGINS: z
      .string()
      .default('*')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim().replace(/\/$/, ''))
          .filter(Boolean),
      ),
    /** How often the gateway asks each replica of a replicated service whether it is ready (routing skips those that are not). */
    UPSTREAM_PROBE_MS: z.coerce.number().int().min(50).max(60_000).default(500),
    /** Upper bound on a proxied request (uploads included). */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    /**
     * The Ed25519 key (PKCS#8 PEM or JWK) the gateway signs every proxied request's caller assertion with, and its
     * kid (the services find the public key by it in CALLER_ASSERTION_PUBLIC_KEYS). Both or neither; the gateway
     * refuses to start without them (its keys CLI and migrations need none).
     */
    CALLER_ASSERTION_PRIVATE_KEY: callerAssertionPrivateKeySchema.optional(),
    CALLER_ASSERTION_KEY_ID: callerAssertionKeyIdSchema.optional(),
  })
  .transform((config, ctx) => {
    if ((config.CALLER_ASSERTION_PRIVATE_KEY === undefined) !== (config.CALLER_ASSERTION_KEY_ID === undefined)) {
      const missing = config.CALLER_ASSERTION_KEY_ID === undefined ? 'CALLER_ASSERTION_KEY_ID' : 'CALLER_ASSERTION_PRIVATE_KEY';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other CALLER_ASSERTION_ variable' });
      return z.NEVER;
    }
    const production = config.NODE_ENV === 'production';
    const adminToken = config.ADMIN_TOKEN ?? (production ? undefined : 'dev-admin-token');
    if (!adminToken || (production && adminToken.length < 16)) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_TOKEN'], message: 'is required when NODE_ENV=production (at least 16 characters)' });
      return z.NEVER;
    }
    return { ...config, ADMIN_TOKEN: adminToken };
  });
export type Config = z.infer<typeof configSchema>;
