import { z } from 'zod';

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
});
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {}

/** Parses the environment once at boot; fails with the names of every missing or bad variable. */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
  throw new ConfigError(`Invalid configuration:\n${problems}`);
}
