// `npm run openapi:snapshot`: builds, starts the real stack (gateway + six services, as `npm start` and the e2e tests
// do) on ports the OS picks, with a throwaway database and NATS prefix, writes the gateway's /openapi.json to
// openapi/openapi.json (prettier-formatted, so the same document always gives the same bytes), and removes
// everything it started or created. DATABASE_URL and NATS_URL name the servers to use (local defaults).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { randomBytes } = await import('node:crypto');
const { join } = await import('node:path');
const { default: pg } = await import('pg');
const { checkInfrastructure, deleteStreams, recreateDatabase, startStack } = await import('@app/dev-stack');
const { writeDocument } = await import('../packages/openapi-gate/src/index.ts');

const ROOT = join(import.meta.dirname, '..');
const SNAPSHOT = join(ROOT, 'openapi', 'openapi.json');
const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop');
databaseUrl.pathname = `/openapi_snapshot_${suffix}`;
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const natsPrefix = `openapi_${suffix}`;

const problem = await checkInfrastructure(databaseUrl.toString(), natsUrl);
if (problem) {
  console.error(problem);
  process.exit(1);
}
execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});

await recreateDatabase(databaseUrl.toString());
let stack;
try {
  stack = await startStack({
    port: 0,
    output: 'errors',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl.toString(),
      NATS_URL: natsUrl,
      NATS_PREFIX: natsPrefix,
      ADMIN_TOKEN: randomBytes(16).toString('hex'),
    },
  });
  const response = await fetch(`${stack.gatewayUrl}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  await writeDocument(SNAPSHOT, await response.json());
  console.log(`Wrote openapi/openapi.json. Commit it; npm test compares it with what the API serves and with the last release.`);
} catch (error) {
  console.error(`openapi:snapshot failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  await stack?.stop();
  await dropDatabase(databaseUrl);
  await deleteStreams(natsUrl, natsPrefix);
}

async function dropDatabase(url) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
