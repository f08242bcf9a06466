import { z } from 'zod';
import { baseConfigSchema, developmentSecretsAllowed, gatewayPortVariable, secretRequired } from '@app/service-kit';

/** One entry of CALENDAR_ENCRYPTION_KEYS: `keyId:base64-of-32-bytes`. */
const KEY_RING = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=$/;

const url = (fallback: string) => z.url({ message: 'must be a URL' }).default(fallback);
/** Unset: the transform below makes it true only where NODE_ENV says development or test, so production fails closed. */
const outsideProduction = z.stringbool().optional();

const optionalSecret = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const configSchema = baseConfigSchema
  .safeExtend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3005),
    PUBLIC_BASE_URL: url('http://127.0.0.1:3000').meta({
      description:
        "the gateway's public address: OAuth redirect URIs are `${PUBLIC_BASE_URL}/api/calendar-connections/oauth/<provider>/callback`, ICS feed URLs `${PUBLIC_BASE_URL}/ics/<token>.ics` (their events' UIDs end in its hostname)",
      defaultText: "`http://127.0.0.1:3000` (`npm start`: the gateway's own port; compose: from `GATEWAY_PORT`)",
    }),
    GATEWAY_PORT: gatewayPortVariable,
    GOOGLE_CLIENT_ID: optionalSecret.meta({
      description:
        'Google OAuth client id (also needed to refresh Google tokens); without it and the secret the Google OAuth endpoints answer 503 naming what is missing',
      defaultText: 'unset',
    }),
    GOOGLE_CLIENT_SECRET: optionalSecret.meta({ description: 'the secret of `GOOGLE_CLIENT_ID`', defaultText: 'unset' }),
    GOOGLE_AUTH_URL: url('https://accounts.google.com/o/oauth2/v2/auth').meta({
      description: "Google's OAuth authorization endpoint (tests point it at a local fake)",
    }),
    GOOGLE_TOKEN_URL: url('https://oauth2.googleapis.com/token').meta({
      description: "Google's OAuth token endpoint (tests point it at a local fake)",
    }),
    GOOGLE_API_URL: url('https://www.googleapis.com').meta({
      description: 'root of the Google APIs; Calendar v3 lives under `/calendar/v3` (tests point it at a local fake)',
    }),
    MICROSOFT_CLIENT_ID: optionalSecret.meta({
      description: 'Microsoft identity platform app (client) id; without it and the secret the Microsoft OAuth endpoints answer 503',
      defaultText: 'unset',
    }),
    MICROSOFT_CLIENT_SECRET: optionalSecret.meta({ description: 'the secret of `MICROSOFT_CLIENT_ID`', defaultText: 'unset' }),
    MICROSOFT_TENANT: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, { message: 'must be a tenant id or name' })
      .default('common')
      .meta({ description: 'the Microsoft tenant (id or name) of the app; `common` takes work and personal accounts' }),
    MICROSOFT_AUTH_URL: z.url().optional().meta({
      description: "Microsoft's OAuth authorization endpoint (tests point it at a local fake)",
      defaultText: '`https://login.microsoftonline.com/<MICROSOFT_TENANT>/oauth2/v2.0/authorize`',
    }),
    MICROSOFT_TOKEN_URL: z.url().optional().meta({
      description: "Microsoft's OAuth token endpoint (tests point it at a local fake)",
      defaultText: '`https://login.microsoftonline.com/<MICROSOFT_TENANT>/oauth2/v2.0/token`',
    }),
    GRAPH_API_URL: url('https://graph.microsoft.com/v1.0').meta({
      description: 'Microsoft Graph root, including the version (tests point it at a local fake)',
    }),
    CALENDAR_ENCRYPTION_KEYS: z.string().optional().meta({
      description:
        '`keyId:base64-of-32-bytes[,…]`, first is current; tokens are AES-256-GCM encrypted with it and re-encrypted on rotation (every key decrypts, so old keys can be rotated out)',
      defaultText: 'fixed development key with `NODE_ENV=development` or `test` only',
    }),
    OAUTH_STATE_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional().meta({
      description: 'signs the OAuth `state` (32+ characters)',
      defaultText: 'fixed development secret with `NODE_ENV=development` or `test` only',
    }),
    CALENDAR_SYNC_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(300_000)
      .meta({ description: 'regular sync of each connection (±10 % jitter)' }),
    CALENDAR_SYNC_POLL_MS: z.coerce.number().int().min(50).default(1000).meta({
      description:
        'how often each replica claims the connections that are due (a create or `/sync` wakes it at once), and the calendar writes that are due (a booking event wakes it)',
    }),
    CALENDAR_ICS_ALLOW_HTTP: outsideProduction.meta({
      description: 'plain `http://` ICS feed URLs are accepted (`true`/`false`), at create and on every redirect',
      defaultText: '`true` with `NODE_ENV=development` or `test`, else `false`',
    }),
    CALENDAR_ICS_ALLOW_PRIVATE_TARGETS: outsideProduction.meta({
      description:
        "ICS feeds on loopback, private, link-local, multicast or unspecified addresses are accepted (`false`: refused at create, at every connect and on every redirect; the webhooks' rules, the kit's `isPublicAddress`)",
      defaultText: '`true` with `NODE_ENV=development` or `test`, else `false`',
    }),
    CALENDAR_ICS_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(5 * 1024 * 1024)
      .meta({
        description:
          'an ICS feed larger than this fails its sync (`status: error`, `last_error` says so; reading stops at the limit) and keeps its last windows',
        defaultText: '`5242880` (5 MiB)',
      }),
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
  })
  .transform((config) => ({
    ...config,
    CALENDAR_ICS_ALLOW_HTTP: config.CALENDAR_ICS_ALLOW_HTTP ?? developmentSecretsAllowed(config),
    CALENDAR_ICS_ALLOW_PRIVATE_TARGETS: config.CALENDAR_ICS_ALLOW_PRIVATE_TARGETS ?? developmentSecretsAllowed(config),
  }));
export type Config = z.infer<typeof configSchema>;

/**
 * What calendar-sync runs with that no deployment sets: constants, not variables (docs/configuration.md lists only
 * what an operator decides). Tests that need other values pass them to `createServiceDefinition({ tuning })`.
 */
export interface Tuning {
  /** Syncs at once per replica. */
  syncConcurrency: number;
  /** A claimed sync's time limit; after it another replica may take the connection over. The sync gets 80 % of it. */
  syncLeaseMs: number;
  /** Tries of one provider request, the first included. */
  requestAttempts: number;
  /** First backoff of the in-sync retries on provider 5xx and network errors (doubled per attempt, equal jitter). */
  retryBaseMs: number;
  /** A provider `Retry-After` up to this long is waited out inside the sync; a longer one ends the attempt and reschedules it. */
  retryMaxWaitMs: number;
  /** Time limit of one provider HTTP request. */
  httpTimeoutMs: number;
  /** Redirects an ICS feed request follows (each target checked like the feed's URL) before it fails. */
  icsMaxRedirects: number;
  /** Occurrences of one recurring ICS event kept per read at most (a rule without end cannot run away). */
  icsMaxOccurrences: number;
  /** Write-back attempts at once per replica. */
  writeConcurrency: number;
  /** A claimed write's time limit (the attempt gets 80 % of it), as for syncs. */
  writeLeaseMs: number;
  /** First wait after a failed write attempt, doubled per failure (equal jitter). */
  writeRetryBaseMs: number;
  /** The longest wait between write attempts. */
  writeRetryCapMs: number;
}

export const TUNING: Tuning = {
  // A sync mostly waits on its provider: four at once get through about a thousand connections per replica and
  // 5-minute interval if a sync takes a second, and leave most of the replica's pooled connections to its API. More
  // connections than that want more replicas, which share the due connections by their claims.
  syncConcurrency: 4,
  // The sync gets 96 s: room for its requests and their retries (one request: 4 tries of at most 15 s, 3.5 s of
  // backoff, Retry-After waits of at most 10 s). A replica that dies mid-sync holds its connection for 2 minutes at most.
  syncLeaseMs: 120_000,
  // Three retries ride out a provider's passing 5xx or a dropped connection; a failure that outlasts them fails the
  // sync, which is retried after 30 s, 1 min, 2 min … (domain/retry-policy.ts).
  requestAttempts: 4,
  // 0.25–0.5 s, then 0.5–1 s and 1–2 s: the three retries wait 3.5 s at most, so they cost a sync little.
  retryBaseMs: 500,
  // A throttle of a few seconds is waited out inside the sync. A longer Retry-After would hold one of the replica's
  // four sync slots for nothing, so the sync ends and the connection is retried once the wait has passed.
  retryMaxWaitMs: 10_000,
  // 15 s lets a slow provider page through; four tries of a request that hangs (60 s) still end within the sync's 96 s.
  httpTimeoutMs: 15_000,
  // Calendar hosts redirect once or twice (http → https, a moved feed); five is what browsers' feed readers allow
  // and keeps a redirect loop from eating the sync.
  icsMaxRedirects: 5,
  // Occurrences of one event inside a read's 69 days: a daily event has 69, an hourly one about 1,700; 5,000 is every
  // occurrence a sane feed has, and a minutely rule stops there (the rule's walk from DTSTART has its own cap,
  // domain/ics-recurrence.ts).
  icsMaxOccurrences: 5000,
  // Writes are a few requests each (find, insert or patch or delete): as many at once as syncs, for the same reasons.
  writeConcurrency: 4,
  // Like a sync's: room for a step's tries (each request at most 15 s) and their waits; a dead replica's row waits 2 min.
  writeLeaseMs: 120_000,
  // 30 s, 1 min, 2 min …: a provider outage is retried often at first, then every hour at most, so nothing is lost
  // and a long outage does not cost a request per booking every few seconds.
  writeRetryBaseMs: 30_000,
  writeRetryCapMs: 3_600_000,
};

/** Resolved provider endpoints: the tenant-dependent Microsoft defaults filled in. */
export function microsoftEndpoints(config: Config): { authUrl: string; tokenUrl: string } {
  const base = `https://login.microsoftonline.com/${config.MICROSOFT_TENANT}/oauth2/v2.0`;
  return { authUrl: config.MICROSOFT_AUTH_URL ?? `${base}/authorize`, tokenUrl: config.MICROSOFT_TOKEN_URL ?? `${base}/token` };
}
