import { isIP } from 'node:net';
import { z } from 'zod';
import { baseConfigSchema, callerAssertionSigningKeysSchema, developmentSecretsAllowed, secretRequired } from '@app/service-kit';

/** Names proxy-addr knows for address ranges (`loopback` = 127.0.0.1/8 and ::1/128, and so on). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** TRUST_PROXY as proxy-addr takes it: false (off), a hop count, or the addresses / CIDRs / range names. */
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

const upstreamsDescription = (service: string) =>
  `the ${service} service's upstream: comma-separated URLs are replicas, balanced round-robin`;

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
    ADMIN_TOKEN: z.string().min(1).optional().meta({
      description: 'bearer token of `/admin/v1/*`; required (16+ characters) unless NODE_ENV is development or test',
      defaultText: '`dev-admin-token` with `NODE_ENV=development` or `test` only',
    }),
    BOOKINGS_URL: upstreams('http://127.0.0.1:3001').meta({ description: upstreamsDescription('bookings') }),
    SCHEDULING_URL: upstreams('http://127.0.0.1:3002').meta({ description: upstreamsDescription('scheduling') }),
    CATALOG_URL: upstreams('http://127.0.0.1:3003').meta({ description: upstreamsDescription('catalog') }),
    EVENTS_URL: upstreams('http://127.0.0.1:3004').meta({ description: upstreamsDescription('events') }),
    CALENDAR_SYNC_URL: upstreams('http://127.0.0.1:3005').meta({ description: upstreamsDescription('calendar-sync') }),
    WEBHOOKS_URL: upstreams('http://127.0.0.1:3006').meta({ description: upstreamsDescription('webhooks') }),
    RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200).meta({
      description: 'requests per API key (per IP without a key) per minute → 429 `RATE_LIMITED` + `Retry-After`',
    }),
    PUBLISHABLE_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(120).meta({
      description:
        "requests per publishable key and client IP together per minute (on top of `RATE_LIMIT_MAX` per key), so one visitor cannot spend a shop's budget → 429 `RATE_LIMITED` + `Retry-After`; in the rate limiter's store (shared through `RATE_LIMIT_REDIS_URL`)",
    }),
    RATE_LIMIT_REDIS_URL: z
      .url({ protocol: /^rediss?$/, message: 'must be a redis:// or rediss:// URL' })
      .optional()
      .meta({
        description:
          'shared store of the rate limits (`redis://` or `rediss://`), so N gateways share one budget. Unreachable at boot: the gateway refuses to start. Unreachable at runtime: requests are let through (fail-open, logged once per outage), since the limit is a fairness guard and keys are still verified against Postgres — a Redis outage should not take the whole API down',
        defaultText: 'unset (each gateway counts alone)',
        whenToChange: 'as soon as there is more than one gateway replica',
      }),
    RATE_LIMIT_REDIS_PREFIX: z
      .string()
      .min(1)
      .default('gateway-rate-limit:')
      .meta({ description: "prefix of the rate limiter's keys in that Redis" }),
    AUTH_FAILURES_MAX: z.coerce.number().int().min(1).default(30).meta({
      description:
        'failed authentications (bad API key or admin token) per client IP per minute; beyond, every request from that IP carrying a key or an admin token is 429 `RATE_LIMITED` with `Retry-After`, before any lookup — except a key that authenticated on this gateway process in the last 10 minutes, which keeps being served (the limit holds back guessing, not the customers behind one proxy)',
    }),
    TRUST_PROXY: trustProxy.meta({
      description:
        'the load balancers in front: a hop count (that many proxies, whoever they are — only when the gateway is reachable through them alone) or comma-separated IPs / CIDRs (`10.0.0.0/8,192.0.2.1`, also `loopback`); the client IP (`X-Forwarded-For`) behind them is what the rate limit and the auth-failure limit count by',
      defaultText: 'unset (off)',
      whenToChange:
        'behind a load balancer or reverse proxy it must name them: else every client shares its IP, and one guesser spends the auth-failure limit of all',
    }),
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(10 * 1024 * 1024 + 64 * 1024)
      .meta({
        description:
          "declared multipart uploads over this get 413 `PAYLOAD_TOO_LARGE` at the gateway; the default is the catalog's 10 MB file limit plus room for the form around it",
        whenToChange: "with the catalog's `MEDIA_MAX_BYTES`",
      }),
    CORS_ORIGINS: z
      .string()
      .default('*')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim().replace(/\/$/, ''))
          .filter(Boolean),
      )
      .meta({
        description:
          'comma-separated origins a browser may read the API from: the public slots answer any of them (`*` = every origin, preflight 204); `/api/v1/*` answers only origins listed by name',
      }),
    UPSTREAM_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100)
      .default(30_000)
      .meta({ description: 'upper bound of a proxied request (uploads included)' }),
    CALLER_ASSERTION_SIGNING_KEYS: callerAssertionSigningKeysSchema.optional().meta({
      description:
        'the key the gateway mints each service\'s caller assertions with, per service (JSON: `{"<service>":{"kid":"…","secret":"…"}}` for bookings, scheduling, catalog, events, calendar-sync and webhooks, each secret at least 32 random bytes in base64url and a different one per service): the `kid` and `secret` are one entry of that service\'s `CALLER_ASSERTION_SECRETS`. Its keys CLI and migrations need none. See [Trust](security.md#trust-caller-assertions)',
      defaultText: 'none: required to serve',
    }),
  })
  .transform((config, ctx) => {
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

/**
 * What the gateway runs with that no deployment sets: constants, not variables (docs/configuration.md lists only what
 * an operator decides). Tests that need other values pass them to `createServiceDefinition({ tuning })`.
 */
export interface Tuning {
  /** How long a key lookup is cached (a revoked key is refused everywhere within it). */
  authCacheTtlMs: number;
  /** The window `RATE_LIMIT_MAX` is counted in. */
  rateLimitWindowMs: number;
  /** How often each replica of a replicated service is probed on `/readyz`. */
  upstreamProbeMs: number;
  /** Declared JSON bodies over this are refused with 413 before anything is proxied. */
  maxBodyBytes: number;
  /** How often the keys used since are written to `last_used_at` (each at most once a minute). */
  lastUsedFlushMs: number;
}

export const TUNING: Tuning = {
  // API.md promises that a revoked key is refused everywhere within 5 s: the cache may not hold an entry longer, and
  // shorter would send a hot key's lookups to Postgres more often for nothing.
  authCacheTtlMs: 5000,
  // RATE_LIMIT_MAX is a budget per minute, as API.md counts every limit (failed authentications too).
  rateLimitWindowMs: 60_000,
  // A replica that is told to stop answers 503 on /readyz for SHUTDOWN_DRAIN_MS (2 s; 5 s in deploy/k8s): probing
  // twice a second takes it out of rotation within a quarter of that, at a cost of two small requests a second per
  // replica. A probe not answered within the interval counts as not ready.
  upstreamProbeMs: 500,
  // API.md: JSON bodies are limited to 1 MB, which is also every service's own limit (the kit's buildService).
  maxBodyBytes: 1024 * 1024,
  // Off the request path: one UPDATE of every key used since, however many requests; a gateway that stops writes
  // its last batch on close, so a crash loses at most this much of `last_used_at`, which is at minute precision anyway.
  lastUsedFlushMs: 5000,
};
