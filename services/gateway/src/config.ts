import { isIP } from 'node:net';
import { z } from 'zod';
import {
  baseConfigSchema,
  callerAssertionKeyIdSchema,
  callerAssertionPrivateKeySchema,
  developmentSecretsAllowed,
  secretRequired,
} from '@app/service-kit';

/** Names proxy-addr knows for address ranges (`loopback` = 127.0.0.1/8 and ::1/128, and so on). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Which peers' `X-Forwarded-For` is believed for the client IP: off (the default), a hop count (that many proxies
 * in front, whoever they are), or comma-separated addresses / CIDRs / range names of the trusted proxies. Behind a
 * load balancer it must name it: off, every client has the balancer's IP and shares its auth-failure limit.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): false | number | string[] => {
    if (value === undefined || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.find((entry) => !isAddressOrCidr(entry));
    if (bad === undefined && entries.length > 0) return entries;
    ctx.addIssue({ code: 'custom', message: `must be a hop count or comma-separated IPs/CIDRs (not "${bad ?? value}")` });
    return z.NEVER;
  });

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
  .safeExtend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Bearer token of the admin endpoints (16+ characters); `dev-admin-token` only when NODE_ENV is development or test. */
    ADMIN_TOKEN: z.string().min(1).optional(),
    BOOKINGS_URL: upstreams('http://127.0.0.1:3001'),
    SCHEDULING_URL: upstreams('http://127.0.0.1:3002'),
    CATALOG_URL: upstreams('http://127.0.0.1:3003'),
    EVENTS_URL: upstreams('http://127.0.0.1:3004'),
    CALENDAR_SYNC_URL: upstreams('http://127.0.0.1:3005'),
    WEBHOOKS_URL: upstreams('http://127.0.0.1:3006'),
    /** Requests per key (or per IP for public routes) per window. */
    RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
    /** Shared rate-limit store (`redis://…`): every gateway replica counts in it, so N replicas share one budget. */
    RATE_LIMIT_REDIS_URL: z.url({ protocol: /^rediss?$/, message: 'must be a redis:// or rediss:// URL' }).optional(),
    /** Prefix of the rate limiter's keys in that Redis. */
    RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('gateway-rate-limit:'),
    /**
     * Failed authentications (bad key or admin token) per client IP per minute; then 429 before any lookup, except
     * for a key that authenticated on this process in the last 10 minutes (auth/recent-keys.ts).
     */
    AUTH_FAILURES_MAX: z.coerce.number().int().min(1).default(30),
    TRUST_PROXY: trustProxy,
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
    // A fixed development token only where NODE_ENV says so explicitly; unset counts as production.
    const development = developmentSecretsAllowed(config);
    const adminToken = config.ADMIN_TOKEN ?? (development ? 'dev-admin-token' : undefined);
    if (!adminToken) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_TOKEN'], message: secretRequired('ADMIN_TOKEN') });
      return z.NEVER;
    }
    if (!development && adminToken.length < 16) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_TOKEN'], message: 'must be at least 16 characters' });
      return z.NEVER;
    }
    return { ...config, ADMIN_TOKEN: adminToken };
  });
export type Config = z.infer<typeof configSchema>;
