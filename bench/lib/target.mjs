// The stack a benchmark runs against and the context its scenarios get: shared by `npm run bench` and
// `npm run bench:growth`, which differ only in the database and port they take.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { startStack, checkInfrastructure, deleteStreams, recreateDatabase } from '@app/dev-stack';

const ROOT = join(import.meta.dirname, '..', '..');
export const ADMIN_TOKEN = process.env.ADMIN_TOKEN ?? 'bench-admin-token-0123456789';

/** A stack of our own, on a fresh database and NATS prefix, quiet logs, no effective rate limit. */
export async function ownStack({ databaseUrl, port, portVariable }) {
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const natsPrefix = `bench_${Date.now().toString(36)}`;
  const problem = await checkInfrastructure(databaseUrl, natsUrl);
  if (problem) throw new Error(problem);
  await recreateDatabase(databaseUrl);
  execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    // Production refuses to start with /metrics open beside the API: a token (the bench scrapes none).
    METRICS_TOKEN: process.env.METRICS_TOKEN ?? 'bench-metrics-token-0123456789',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    NATS_PREFIX: natsPrefix,
    ADMIN_TOKEN,
    RATE_LIMIT_MAX: '100000000',
    CALENDAR_ENCRYPTION_KEYS: process.env.CALENDAR_ENCRYPTION_KEYS ?? `bench:${Buffer.alloc(32, 7).toString('base64')}`,
    OAUTH_STATE_SECRET: process.env.OAUTH_STATE_SECRET ?? 'bench-oauth-state-secret-0123456789',
    // The webhook scenarios' receiver listens on http://127.0.0.1, which production refuses (https and public
    // addresses only); the address is still checked at every connect, under this looser policy.
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    // BENCH_CPU_PROF=dir: every service writes a V8 CPU profile there when the stack stops (open it in Chrome's DevTools).
    ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` } : {}),
  };
  // A stack that fails to start (a port taken) still made the streams of the services that came up: each reserves
  // its JetStream storage, and enough of them left behind make NATS refuse new streams for everyone on the machine.
  const stack = await startStack({ port, portVariable, env, output: 'errors' }).catch(async (error) => {
    await deleteStreams(natsUrl, natsPrefix);
    throw error;
  });
  const stop = async () => {
    await stack.stop();
    await deleteStreams(natsUrl, natsPrefix);
  };
  return { url: stack.gatewayUrl, port, databaseUrl, natsUrl, children: stack.children, startGateway: stack.startGateway, stop };
}

export async function existingTarget() {
  if (!process.env.DATABASE_URL) throw new Error('With BENCH_URL, also set DATABASE_URL (seeding writes bulk rows) and ADMIN_TOKEN.');
  const url = process.env.BENCH_URL.replace(/\/$/, '');
  return {
    url,
    port: Number(new URL(url).port || 80),
    databaseUrl: process.env.DATABASE_URL,
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    stop: async () => undefined,
  };
}

/** A new organization through the admin API: its id and an API key's authorization header. */
export async function createOrganization(url, name = `Bench ${new Date().toISOString()}`) {
  const created = await fetch(`${url}/admin/v1/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, timezone: 'UTC' }),
  });
  if (created.status !== 201) throw new Error(`cannot create the bench organization: ${created.status} ${await created.text()}`);
  const { data } = await created.json();
  return { id: data.id, apiKey: data.api_key, headers: { authorization: `Bearer ${data.api_key}` } };
}

/** What a scenario's seed and requests get: the gateway, an organization and its key, HTTP and SQL helpers. */
export async function context(target) {
  const organization = await createOrganization(target.url);
  const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 4 });
  const auth = organization.headers;
  return {
    baseUrl: target.url,
    apiKey: organization.apiKey,
    organizationId: organization.id,
    /** The stack's database: its Postgres backends are the ones whose CPU counts (bench/process-cpu.mjs). */
    database: new URL(target.databaseUrl).pathname.slice(1),
    headers: auth,
    async api(method, path, body) {
      const response = await fetch(`${target.url}${path}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async sql(text, params = []) {
      return (await pool.query(text, params)).rows;
    },
    close: () => pool.end(),
  };
}
