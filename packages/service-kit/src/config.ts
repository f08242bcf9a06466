import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { callerAssertionSecretsSchema } from './caller-assertion/keys.js';
import { DEFAULT_ROLE_TIMEOUTS } from './db/roles.js';
import { DUPLICATE_WINDOW_MS, type StreamLimits } from './nats/stream-limits.js';

const HOUR_MS = 3_600_000;

/**
 * Env vars every service reads, without the rules that tie several of them together (`baseConfigSchema` adds them):
 * `.pick` works on this one only. Each field's documentation is its `.meta()` (`description`, optionally `defaultText`
 * where the default is better said than printed, and `whenToChange`), from which `npm run docs:config` writes
 * docs/configuration.md; `.meta()` comes last so that it never changes how a value parses.
 */
export const baseConfigFields = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).optional().meta({
    description:
      'the fixed development secrets (`ADMIN_TOKEN`, `CALENDAR_ENCRYPTION_KEYS`, `OAUTH_STATE_SECRET`) stand in for missing ones only with `development` or `test` set explicitly; unset or `production`, a missing secret stops the process at boot with a message naming it (so a deployment that forgets NODE_ENV fails closed)',
    defaultText: 'unset (`npm start`: `development`; the test harness: `test`)',
  }),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .meta({ description: 'pino level (`silent` in tests)' }),
  HOST: z.string().default('127.0.0.1').meta({
    description: 'listen address',
    whenToChange: 'to `0.0.0.0` in a container; services should stay on private addresses',
  }),
  PORT: z.coerce.number().int().min(0).max(65535).meta({ description: 'listen port' }),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/scheduling_shop').meta({
    description:
      "Postgres, as the service's own role (`<service>_service`; `npm start` and the tests make it so): each service uses its own schema. See [Postgres roles](security.md#trust-postgres-roles-and-the-connection-budget)",
  }),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10).meta({
    description: 'connections per process',
    whenToChange: "when replicas × services × this would exceed Postgres' (or PgBouncer's) connection budget",
  }),
  DATABASE_NAMED_STATEMENTS: z.stringbool().default(true).meta({
    description: '`false`: statements are sent unnamed (see [the budget](security.md#trust-postgres-roles-and-the-connection-budget))',
    whenToChange:
      'behind PgBouncer in transaction mode before 1.21, which cannot follow named prepared statements from one server connection to the next',
  }),
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000).meta({
    description:
      'how long a statement waits for a free pooled connection; past it, 503 `UPSTREAM_UNAVAILABLE` with `Retry-After: 1` (`The database did not answer in time`)',
  }),
  DATABASE_MIGRATION_URL: z.string().url().optional().meta({
    description:
      "the migration step's connection: a superuser's (it then creates the migration role, the service's role and the extensions, and applies the migrations as the migration role), or the migration role's own login. A service whose `DATABASE_URL` role may not migrate only checks at start that its schema is up to date, and refuses to start otherwise",
    defaultText: 'unset: `DATABASE_URL` migrates too (one role for everything)',
  }),
  DATABASE_MIGRATION_ROLE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and _ only')
    .default('migrator')
    .meta({
      description: "the role that owns the schemas and applies migrations when `DATABASE_MIGRATION_URL` is a superuser's",
    }),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_ROLE_TIMEOUTS.statementTimeoutMs).meta({
    description:
      "set on the service's role when a superuser migration step creates it: a longer statement is cancelled (503 `UPSTREAM_UNAVAILABLE` with `Retry-After`)",
  }),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_ROLE_TIMEOUTS.lockTimeoutMs).meta({
    description:
      "set on the service's role likewise: a wait for a row or table lock longer than this is given up (503 `UPSTREAM_UNAVAILABLE` with `Retry-After`)",
  }),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(DEFAULT_ROLE_TIMEOUTS.idleInTransactionTimeoutMs)
    .meta({ description: "set on the service's role likewise: a session idle this long inside a transaction is ended, with its locks" }),
  MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(1_000_000).default(512).meta({
    description:
      'requests a process serves at once; past it a new one is answered 503 `UPSTREAM_UNAVAILABLE` with `Retry-After: 1` at once instead of queueing (health, readiness and metrics excepted); 0: no limit',
    whenToChange: "to about 3 × the process's throughput × its usual latency, so a burst is served and an overload is shed",
  }),
  SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500).meta({
    description:
      "while the event loop runs late by more than this on average (over 250 ms), the process's CPU is saturated and new requests are answered 503 `UPSTREAM_UNAVAILABLE` with `Retry-After: 1`; 0: off",
  }),
  NATS_URL: z.string().default('nats://127.0.0.1:4222').meta({
    description:
      'NATS with JetStream; the servers of a cluster comma-separated (`nats://n1:4222,nats://n2:4222,nats://n3:4222`): the client connects to one and moves to another when it goes',
  }),
  NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'letters, digits, _ and - only')
    .default('')
    .meta({
      description: 'prefix of every NATS subject and stream name, so that test runs (or tenants of one NATS) never see each other',
      defaultText: 'empty',
    }),
  NATS_USER: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .optional()
    .meta({
      description:
        "the service's own NATS user (its service name in the generated configuration, see [NATS users](security.md#nats-users-one-per-service)); both or neither with `NATS_PASSWORD`",
      defaultText: 'unset (an unauthenticated connection, as `npm start` makes to the local NATS)',
    }),
  NATS_PASSWORD: z.string().min(16, { message: 'must be at least 16 characters' }).optional().meta({
    description: 'the password of `NATS_USER` (16+ characters; usually `NATS_PASSWORD_FILE`); both or neither',
    defaultText: 'unset',
  }),
  REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(2000)
    .meta({ description: 'timeout of requests between services (then 503 `UPSTREAM_UNAVAILABLE`)' }),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(2000).meta({
    description:
      "on SIGTERM/SIGINT, how long a process keeps serving while `/readyz` already answers 503 (so that load balancers, and the gateway's replica probes, stop sending it new requests), before it closes its listener and drains in-flight requests",
  }),
  STARTUP_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000).meta({
    description:
      "at start, how long a process keeps retrying (backoff 250 ms to 2 s, each try logged as a warning) a NATS that does not answer yet — a refused connection, a name not resolved, a timeout — before it exits with the error. Containers and pods start in any order; a wrong password or a missing permission fails at once. Postgres' first connection (the migration check, and the migration steps) is retried by the migration itself, every second for up to 2 minutes",
  }),
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional().meta({
    description:
      'set (16+ characters): `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`, else 401 `UNAUTHORIZED`. Outside development and test this or `METRICS_PORT` is required: a process with neither refuses to start',
    defaultText: 'unset',
  }),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional().meta({
    description:
      'set: `/metrics` is served on a listener of its own on this port (same `HOST`, timeouts and token) and no longer on the API port (404 there)',
    defaultText: 'unset (compose and `deploy/k8s`: `9464`, not published)',
  }),
  CALLER_ASSERTION_SECRETS: callerAssertionSecretsSchema.optional().meta({
    description:
      'this service\'s HMAC-SHA256 secrets for the gateway\'s caller assertions, by kid (JSON: `{"<kid>":"<secret>"}`, each secret at least 32 random bytes in base64url, e.g. `openssl rand 32 | basenc --base64url | tr -d =`); only this service and the gateway hold them, and an assertion must name this service as its audience. Several kids during a rotation. Checked when set; a service that serves requests refuses to start without it, while `migrate` needs none. See [Trust](security.md#trust-caller-assertions)',
    defaultText: 'none: required to serve (`npm start` and the tests generate one per service per start)',
  }),
  NATS_STREAM_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(8760).default(168).meta({
    description:
      "JetStream `max_age` of the service's stream (publishers: bookings, scheduling, catalog, events, calendar-sync), set when its relay creates it and brought up to date at each start; older events are dropped. It bounds the longest consumer outage survived without losing events: 7 days covers a long weekend plus the time to notice and fix a stopped consumer. See [Retention](operations.md#retention)",
    defaultText: '`168` (7 days)',
    whenToChange: 'to the longest consumer outage you plan for (then `INBOX_RETENTION_HOURS` must grow with it)',
  }),
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1).meta({
    description:
      "JetStream `num_replicas` of the service's streams (events and dead letters; their durable consumers follow the stream), set when created and brought up to date at each start. A publish is acknowledged, and its outbox row marked published, only once a majority of the replicas stored it",
    whenToChange: 'to 3 on a JetStream cluster of three or more servers (a single server refuses more than 1)',
  }),
  NATS_STREAM_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(1024 * 1024 * 1024)
    .meta({
      description: "JetStream `max_bytes` of the service's stream, reserved by NATS on its disk; past it the oldest events are dropped",
      defaultText: '`1073741824` (1 GiB)',
    }),
  NATS_DLQ_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(87_600).default(720).meta({
    description:
      "JetStream `max_age` of a consuming service's dead-letter stream (`DLQ_<SERVICE>`; consumers: scheduling), set when its consumers start and brought up to date at each start; older dead letters go. Longer than the event streams: a dead letter waits for a person, a fix and a deploy before it is replayed. See [Dead letters](operations.md#dead-letters)",
    defaultText: '`720` (30 days)',
  }),
  NATS_DLQ_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(128 * 1024 * 1024)
    .meta({
      description: 'JetStream `max_bytes` of the dead-letter stream, reserved by NATS; past it the oldest dead letters go',
      defaultText: '`134217728` (128 MiB)',
    }),
  OUTBOX_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(24).meta({
    description:
      'published outbox rows are deleted this long after they were published (kept for debugging: what left, when, after how many attempts); unpublished ones never are. Every service sweeps its outbox, inbox and expired Idempotency-Keys every 15 minutes, 5000 rows a statement',
  }),
  INBOX_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(192).meta({
    description:
      "inbox rows (a consumer's memory of applied event ids) are deleted this long after their event was applied. Must be longer than `NATS_STREAM_MAX_AGE_HOURS` plus JetStream's 2-minute duplicate window, else an event redelivered late would apply twice: the process refuses to start, saying so",
    defaultText: '`192` (8 days)',
  }),
});

const METRICS_UNPROTECTED =
  'METRICS_TOKEN or METRICS_PORT is required unless NODE_ENV=development (or test): set METRICS_TOKEN (16+ characters, ' +
  'or METRICS_TOKEN_FILE) so /metrics answers only its bearer, or METRICS_PORT so /metrics has a listener of its own, off the API port';

/**
 * Env vars every service reads. A service extends this schema with its own (`.safeExtend`, which keeps the rules
 * below; zod's `.extend` refuses to override PORT on a schema with rules).
 */
export const baseConfigSchema = baseConfigFields.superRefine((config, ctx) => {
  // Outside development and test (unset counts as production, as for the secrets), the API port serves no metrics to
  // whoever asks: /metrics needs a token, or a port of its own that the network keeps to the scrapers.
  if (!developmentSecretsAllowed(config) && config.METRICS_TOKEN === undefined && config.METRICS_PORT === undefined) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_TOKEN'], message: METRICS_UNPROTECTED });
  }
  const streamKeepsMs = config.NATS_STREAM_MAX_AGE_HOURS * HOUR_MS + DUPLICATE_WINDOW_MS;
  if (config.INBOX_RETENTION_HOURS * HOUR_MS <= streamKeepsMs) {
    ctx.addIssue({
      code: 'custom',
      path: ['INBOX_RETENTION_HOURS'],
      message:
        `must be longer than NATS_STREAM_MAX_AGE_HOURS (${config.NATS_STREAM_MAX_AGE_HOURS}) plus JetStream's ` +
        `${DUPLICATE_WINDOW_MS / 60_000}-minute duplicate window: an event redelivered after its inbox row was swept ` +
        `would be applied twice (set it to ${config.NATS_STREAM_MAX_AGE_HOURS + 1} or more)`,
    });
  }
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** The stream limits of the config, for `Bus.connect`. */
export function streamLimitsOf(
  config: Pick<BaseConfig, 'NATS_STREAM_MAX_AGE_HOURS' | 'NATS_STREAM_MAX_BYTES'> &
    Partial<Pick<BaseConfig, 'NATS_DLQ_MAX_AGE_HOURS' | 'NATS_DLQ_MAX_BYTES' | 'NATS_STREAM_REPLICAS'>>,
): StreamLimits {
  const { NATS_DLQ_MAX_AGE_HOURS: deadLetterHours, NATS_DLQ_MAX_BYTES: deadLetterBytes } = config;
  return {
    maxAgeMs: config.NATS_STREAM_MAX_AGE_HOURS * HOUR_MS,
    maxBytes: config.NATS_STREAM_MAX_BYTES,
    ...(config.NATS_STREAM_REPLICAS !== undefined && { replicas: config.NATS_STREAM_REPLICAS }),
    ...(deadLetterHours !== undefined && { deadLetterMaxAgeMs: deadLetterHours * HOUR_MS }),
    ...(deadLetterBytes !== undefined && { deadLetterMaxBytes: deadLetterBytes }),
  };
}

/**
 * Whether the fixed development secrets of the repository may stand in for a missing one: only when NODE_ENV says
 * development or test explicitly. Unset or production, a missing secret stops the service at boot.
 */
export function developmentSecretsAllowed(config: Pick<BaseConfig, 'NODE_ENV'>): boolean {
  return config.NODE_ENV === 'development' || config.NODE_ENV === 'test';
}

/** The NATS credentials of the config: both or neither, since a user without a password is a typo, not a choice. */
export function natsCredentials(config: Pick<BaseConfig, 'NATS_USER' | 'NATS_PASSWORD'>): { user: string; password: string } | undefined {
  const { NATS_USER: user, NATS_PASSWORD: password } = config;
  if (user && password) return { user, password };
  if (user || password)
    throw new ConfigError(
      `Invalid configuration:\n  ${user ? 'NATS_PASSWORD' : 'NATS_USER'}: is required when ${user ? 'NATS_USER' : 'NATS_PASSWORD'} is set`,
    );
  return undefined;
}

/** The message of a missing secret: names what makes it required, and the file variant of the variable. */
export function secretRequired(name: string): string {
  return `is required unless NODE_ENV=development (or test): set it, or ${name}_FILE to a file holding it`;
}

export class ConfigError extends Error {}

/** `loadConfig` for a process's entry point: a bad configuration is printed with the process's name, then exit 1. */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, processName: string, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`[${processName}] ${error.message}`);
    process.exit(1);
  }
}

/** Parses the environment once at boot; fails with the names of every missing or bad variable. */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(resolveEnvironment(env, variablesOf(schema)));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
  throw new ConfigError(`Invalid configuration:\n${problems}`);
}

/**
 * The environment as deployments hand it over:
 * - an empty variable counts as unset, because compose's `${NAME:-}` passes an unset one through as "";
 * - `NAME_FILE` names a file holding NAME's value (Docker and Kubernetes secrets are mounted as files), read with
 *   its trailing newline removed, for the variables the schema knows only (other tools' `*_FILE` variables, such
 *   as `TF_CLI_CONFIG_FILE`, are not ours). Setting both is refused, since which one wins would be a guess.
 */
function resolveEnvironment(env: NodeJS.ProcessEnv, known: ReadonlySet<string>): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') resolved[name] = value;
  }
  for (const name of known) {
    const fileName = `${name}_FILE`;
    const path = env[fileName];
    if (!path) continue;
    if (resolved[name] !== undefined) {
      problems.push(`  ${fileName}: ${name} is set as well; set only one of them`);
      continue;
    }
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`  ${fileName}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  if (known.has('PUBLIC_BASE_URL') && known.has('GATEWAY_PORT') && resolved.PUBLIC_BASE_URL === undefined) {
    const derived = publicBaseUrlOfPort(resolved.GATEWAY_PORT);
    if (derived) resolved.PUBLIC_BASE_URL = derived;
  }
  return resolved;
}

/**
 * `PUBLIC_BASE_URL` when only compose's published gateway port is known (`GATEWAY_PORT`, `[host:]port`): the address a
 * browser on the host reaches it at. Without this every media and feed URL named port 3000 whatever port compose
 * published. A port compose picks itself (`127.0.0.1:`) cannot be known here: the default stays.
 */
function publicBaseUrlOfPort(published: string | undefined): string | undefined {
  const match = /^(?:(.*):)?(\d+)$/.exec(published ?? '');
  if (!match) return undefined;
  const host = match[1] && match[1] !== '0.0.0.0' ? match[1] : 'localhost';
  return `http://${host}:${match[2]}`;
}

/** `GATEWAY_PORT` in a config schema beside `PUBLIC_BASE_URL` (see publicBaseUrlOfPort). */
export const gatewayPortVariable = z
  .string()
  .regex(/^(?:.*:)?\d*$/, { message: 'must be a port, or host:port as compose publishes it' })
  .optional()
  .meta({
    description:
      "the gateway's port as compose publishes it (`[host:]port`); when `PUBLIC_BASE_URL` is unset, it is `http://localhost:<port>` (`http://<host>:<port>` with a host)",
    defaultText: 'unset',
  });

/** The variable names of a config schema: the keys of its object, through a transform's pipe. */
function variablesOf(schema: z.ZodType): ReadonlySet<string> {
  if (schema instanceof z.ZodObject) return new Set(Object.keys(schema.shape));
  if (schema instanceof z.ZodPipe) return variablesOf(schema.in as z.ZodType);
  return new Set();
}
