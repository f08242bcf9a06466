import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { callerAssertionPublicKeysSchema } from './caller-assertion/keys.js';
import { DEFAULT_ROLE_TIMEOUTS } from './db/roles.js';
import type { RetrySchedule } from './nats/retry-schedule.js';
import { DUPLICATE_WINDOW_MS, type StreamLimits } from './nats/stream-limits.js';

const HOUR_MS = 3_600_000;

/**
 * Env vars every service reads, without the rules that tie several of them together (`baseConfigSchema` adds them):
 * `.pick` works on this one only.
 */
export const baseConfigFields = z.object({
  /**
   * `development` (set by `npm start`) or `test` (set by the test harness) let a service fall back to the fixed
   * development secrets of the repository; unset counts as production, so a deployment that forgets it fails closed.
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/scheduling_shop'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * `false` behind PgBouncer in transaction mode before 1.21 (which cannot follow named prepared statements from one
   * server connection to the next): statements are then sent unnamed.
   */
  DATABASE_NAMED_STATEMENTS: z.stringbool().default(true),
  /** How long a statement waits for a free pooled connection; past it the request is a 503 with Retry-After. */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  /**
   * The migration step's connection (the migration role's, or a superuser's, who then creates the roles first).
   * Unset: DATABASE_URL migrates too, as in a bare development database with one role.
   */
  DATABASE_MIGRATION_URL: z.string().url().optional(),
  /** The role that owns the schemas and applies migrations, when DATABASE_MIGRATION_URL is a superuser's. */
  DATABASE_MIGRATION_ROLE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and _ only')
    .default('migrator'),
  /** Set on the service's role when a superuser provisions it: a statement running longer is cancelled (503). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_ROLE_TIMEOUTS.statementTimeoutMs),
  /** Likewise: a wait for a row or table lock longer than this is given up (503). */
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_ROLE_TIMEOUTS.lockTimeoutMs),
  /** Likewise: a session idle inside an open transaction this long is ended, with its locks. */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(DEFAULT_ROLE_TIMEOUTS.idleInTransactionTimeoutMs),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Prepended to every NATS subject and stream name, so test runs (or tenants of one NATS) never see each other. */
  NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'letters, digits, _ and - only')
    .default(''),
  /**
   * The service's own NATS user and password (both or neither; the password usually as NATS_PASSWORD_FILE). Unset:
   * an unauthenticated connection, as to the local NATS of `npm start`.
   */
  NATS_USER: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .optional(),
  NATS_PASSWORD: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /**
   * On SIGTERM, how long the process keeps serving while `/readyz` already says 503, so that load balancers
   * (the gateway's replica probes) stop sending it new requests before the listener closes.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * At start, how long the service keeps retrying NATS while it does not answer yet (refused, name not resolved, timed
   * out), before it exits with the error: services start in any order beside their servers. (Postgres' first
   * connection is retried by the migration check, for up to 2 minutes.)
   */
  STARTUP_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** The whole request (headers and body) must arrive within this, else 408 and the connection is closed. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** The request headers must arrive within this (at most HTTP_REQUEST_TIMEOUT_MS). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** An idle keep-alive connection is closed after this; above the usual 60 s idle timeout of load balancers. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
  /** A connection on which nothing is sent or received for this long is closed. */
  HTTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /**
   * When set, `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>` (16+ characters). Outside development
   * and test, this or METRICS_PORT is required (baseConfigSchema): the process refuses to start with neither.
   */
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** When set, `/metrics` is served on this port only (a listener of its own on HOST), not beside the API. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * The gateway's public keys for caller assertions, as a JWKS (JSON; several kids during a rotation). Checked
   * here when set; a service that serves requests refuses to start without it (useCallerAssertionKeys), while
   * `migrate` and the gateway's keys CLI need none.
   */
  CALLER_ASSERTION_PUBLIC_KEYS: callerAssertionPublicKeysSchema.optional(),
  /**
   * How long the service's stream keeps an event (JetStream max_age). It bounds the longest consumer outage survived
   * without losing events: 7 days covers a long weekend plus the time to notice and fix a stopped consumer.
   */
  NATS_STREAM_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(8760).default(168),
  /** The most the service's stream holds (JetStream max_bytes); past it the oldest events are dropped. NATS reserves it. */
  NATS_STREAM_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(1024 * 1024 * 1024),
  /**
   * How long a consuming service's dead-letter stream keeps an event that could not be applied (JetStream max_age).
   * Longer than the event streams: a dead letter waits for a person, a fix and a deploy before it is replayed. 30 days.
   */
  NATS_DLQ_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(87_600).default(720),
  /** The most the dead-letter stream holds (JetStream max_bytes, reserved by NATS); past it the oldest dead letters go. */
  NATS_DLQ_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(128 * 1024 * 1024),
  /**
   * The first wait before an event whose handling failed for a transient reason (database or NATS unavailable) is
   * delivered again; each further failure doubles it up to CONSUMER_RETRY_MAX_MS. Such an event is retried without
   * limit, never dead-lettered.
   */
  CONSUMER_RETRY_INITIAL_MS: z.coerce.number().int().min(10).max(600_000).default(250),
  /** The longest wait between two deliveries of an event that keeps failing for a transient reason. */
  CONSUMER_RETRY_MAX_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** How long a published outbox row is kept (for debugging: what left, when, after how many attempts). Never an unpublished one. */
  OUTBOX_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(24),
  /**
   * How long a consumer remembers an applied event id. Longer than the stream keeps an event (plus JetStream's
   * duplicate window), else an event redelivered or re-published late would find no inbox row and apply twice.
   */
  INBOX_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(192),
  /** How often published outbox rows and old inbox rows are swept. */
  RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),
  /** Rows deleted per statement of a sweep: each stays far below the role's statement_timeout. */
  RETENTION_SWEEP_BATCH: z.coerce.number().int().min(1).max(50_000).default(5000),
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
    Partial<Pick<BaseConfig, 'NATS_DLQ_MAX_AGE_HOURS' | 'NATS_DLQ_MAX_BYTES'>>,
): StreamLimits {
  const { NATS_DLQ_MAX_AGE_HOURS: deadLetterHours, NATS_DLQ_MAX_BYTES: deadLetterBytes } = config;
  return {
    maxAgeMs: config.NATS_STREAM_MAX_AGE_HOURS * HOUR_MS,
    maxBytes: config.NATS_STREAM_MAX_BYTES,
    ...(deadLetterHours !== undefined && { deadLetterMaxAgeMs: deadLetterHours * HOUR_MS }),
    ...(deadLetterBytes !== undefined && { deadLetterMaxBytes: deadLetterBytes }),
  };
}

/** The retry schedule of the config's consumers (transient failures), for `consumerTask`'s `retry`. */
export function consumerRetryOf(config: Pick<BaseConfig, 'CONSUMER_RETRY_INITIAL_MS' | 'CONSUMER_RETRY_MAX_MS'>): RetrySchedule {
  return { initialMs: config.CONSUMER_RETRY_INITIAL_MS, maxMs: Math.max(config.CONSUMER_RETRY_INITIAL_MS, config.CONSUMER_RETRY_MAX_MS) };
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
  return resolved;
}

/** The variable names of a config schema: the keys of its object, through a transform's pipe. */
function variablesOf(schema: z.ZodType): ReadonlySet<string> {
  if (schema instanceof z.ZodObject) return new Set(Object.keys(schema.shape));
  if (schema instanceof z.ZodPipe) return variablesOf(schema.in as z.ZodType);
  return new Set();
}
