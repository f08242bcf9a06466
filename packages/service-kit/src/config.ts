import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { callerAssertionPublicKeysSchema } from './caller-assertion/keys.js';

/** Env vars every service reads. A service extends this schema with its own. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/scheduling_shop'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Prepended to every NATS subject and stream name, so test runs (or tenants of one NATS) never see each other. */
  NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'letters, digits, _ and - only')
    .default(''),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /**
   * On SIGTERM, how long the process keeps serving while `/readyz` already says 503, so that load balancers
   * (the gateway's replica probes) stop sending it new requests before the listener closes.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * The gateway's public keys for caller assertions, as a JWKS (JSON; several kids during a rotation). Checked
   * here when set; a service that serves requests refuses to start without it (useCallerAssertionKeys), while
   * `migrate` and the gateway's keys CLI need none.
   */
  CALLER_ASSERTION_PUBLIC_KEYS: callerAssertionPublicKeysSchema.optional(),
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

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
