import { inject } from 'vitest';
import { startStack, type Stack } from '@app/dev-stack';

export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

export interface E2eStack extends Stack {
  /** `fetch` against the gateway returning status and parsed JSON. */
  call(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
}

/**
 * The seven real processes (built `dist`, as `npm start` runs them) on the run's fresh database and NATS prefix,
 * each on a port the OS picked and the stack holds until it stops (no race for ports with other suites). Tests talk
 * to the gateway only.
 */
export async function startE2eStack(
  env: Record<string, string> = {},
  replicas: Record<string, number> = {},
  options: { serviceEnv?: Record<string, Record<string, string>>; databaseHost?: string } = {},
): Promise<E2eStack> {
  const stack = await startStack({
    port: 0,
    serviceEnv: options.serviceEnv ?? {},
    ...(options.databaseHost ? { databaseHost: options.databaseHost } : {}),
    output: process.env.E2E_LOGS ? 'pretty' : 'errors',
    replicas,
    env: {
      ...withoutPublicBaseUrl(process.env),
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.E2E_LOGS ? 'info' : 'warn',
      DATABASE_URL: inject('databaseUrl'),
      NATS_URL: inject('natsUrl'),
      NATS_PREFIX: inject('natsPrefix'),
      NATS_STREAM_MAX_BYTES: String(64 * 1024 * 1024), // NATS reserves it on its disk per stream: keep test runs' streams small
      NATS_DLQ_MAX_BYTES: String(8 * 1024 * 1024),
      ADMIN_TOKEN,
      RATE_LIMIT_MAX: '1000000', // these suites drive real traffic; rate limiting has its own tests
      ...env,
    },
  });
  return {
    ...stack,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${stack.gatewayUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON (media bytes)
      }
      return { status: response.status, body, headers: response.headers };
    },
  };
}

/** The stack's default (its gateway's own address) is what the media test checks, whatever the shell has set. */
function withoutPublicBaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { PUBLIC_BASE_URL: _ignored, ...rest } = env;
  return rest;
}
