import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  CALLER_ASSERTION_HEADER,
  ORGANIZATION_HEADER,
  ORGANIZATION_TIMEZONE_HEADER,
  type ApiKeyScope,
  type ApiKeyType,
} from '@app/contracts';
import { inject } from 'vitest';
import { serviceDatabaseEnv } from '@scheduling-shop/testkit';
import {
  type BaseConfig,
  type KitTuningOverrides,
  loadConfig,
  type RunningService,
  type ServiceDefinition,
  startService,
} from '@app/service-kit';
import { callerAssertion } from './caller-assertion.js';
import { testEnv } from './test-config.js';

/**
 * Starts a service the way server.ts does (migrations, real Postgres and NATS, background tasks) on the
 * run's database and NATS prefix, without listening: drive it with `service.app.inject`. It runs as its own
 * Postgres role, which the migration step (as the run's superuser) creates, as `npm start` does; a DATABASE_URL in
 * `env` names another database of that superuser's. `tuning` puts a test's values in place of the kit's constants
 * (a short HTTP timeout, a fast consumer retry).
 */
export async function startTestService<S extends z.ZodType<BaseConfig>>(
  definition: ServiceDefinition<z.infer<S>>,
  configSchema: S,
  env: Record<string, string> = {},
  tuning: KitTuningOverrides = {},
): Promise<RunningService<z.infer<S>>> {
  const { DATABASE_URL: adminUrl = inject('databaseUrl'), ...rest } = env;
  return startService(
    definition,
    loadConfig(configSchema, testEnv({ ...serviceDatabaseEnv(adminUrl, definition.name), ...rest }, definition.name)),
    {
      listen: false,
      tuning,
    },
  );
}

/**
 * The headers the gateway sends for an organization: a fresh one per call unless `organizationId` is given. The
 * minted caller assertion is what the service believes; the organization headers ride along for tests that read
 * them back (services ignore them).
 */
export function organizationHeaders(organizationId: string = randomUUID(), timezone = 'UTC'): Record<string, string> {
  return {
    [ORGANIZATION_HEADER]: organizationId,
    [ORGANIZATION_TIMEZONE_HEADER]: timezone,
    [CALLER_ASSERTION_HEADER]: callerAssertion({ organizationId, timezone }),
  };
}

/**
 * The headers of a call by a restricted or publishable key of the organization: the assertion names the key's kind
 * (and a restricted key's scopes), as the gateway mints it.
 */
export function keyKindHeaders(
  organizationId: string,
  keyType: ApiKeyType,
  scopes?: ApiKeyScope[],
  timezone = 'UTC',
): Record<string, string> {
  return {
    ...organizationHeaders(organizationId, timezone),
    [CALLER_ASSERTION_HEADER]: callerAssertion({ organizationId, timezone, keyType, ...(scopes ? { scopes } : {}) }),
  };
}

/** A reply as a test reads it: the status and whatever body the service sent (tests assert on its shape). */
export interface InjectedReply {
  status: number;
  body: Record<string, unknown> & { data?: unknown; meta?: unknown; error?: string; code?: string; details?: unknown };
}

/** An API client for one organization (a fresh one unless given), calling the app the way the gateway does. */
export function organizationClient(app: Pick<FastifyInstance, 'inject'>, organizationId: string = randomUUID(), timezone = 'UTC') {
  const headers = organizationHeaders(organizationId, timezone);
  async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<InjectedReply> {
    const response = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  }
  return {
    organizationId,
    /** Any of the four by its name, for tests that run one case per method. */
    request: call,
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown = {}) => call('POST', url, payload),
    patch: (url: string, payload: unknown) => call('PATCH', url, payload),
    delete: (url: string) => call('DELETE', url),
  };
}
