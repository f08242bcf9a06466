// `npm start`: finds or starts Postgres and NATS (START_INFRA, scripts/infrastructure.mjs: the local servers, else an
// embedded Postgres and a nats-server with their data in .data/, else a kept container), builds what changed, starts
// the seven processes with readable prefixed logs, waits until all are ready, creates a development organization on
// first start and prints the gateway URL and its API key. Ctrl-C stops everything cleanly, the embedded servers last.
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
const { join, resolve } = await import('node:path');
const { checkInfrastructure, startStack } = await import('./stack.mjs');
const { infraMode, provideInfrastructure } = await import('./infrastructure.mjs');

const ROOT = join(import.meta.dirname, '..');
const KEY_FILE = join(ROOT, '.dev-api-key');
const DATABASE = 'scheduling_shop';
const port = Number(process.env.PORT ?? 3000);
const started = Date.now();

let built = false;
function build() {
  if (built) return;
  built = true;
  console.log('Building (cached after the first run) ...');
  try {
    execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    });
  } catch {
    console.error('The build failed (see above); nothing was started.');
    process.exit(1);
  }
}

// DATABASE_URL and NATS_URL, when set, are taken as they are: nothing embedded ever starts for them (production).
// What is unset comes from START_INFRA's choice (scripts/infrastructure.mjs): the local servers, else embedded ones
// with their data in .data/, else a container.
const infrastructure = await chooseInfrastructure().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV || 'development',
  DATABASE_URL: infrastructure.databaseUrl,
  NATS_URL: infrastructure.natsUrl,
};
const adminToken = env.ADMIN_TOKEN || (['development', 'test'].includes(env.NODE_ENV) ? 'dev-admin-token' : undefined);
console.log(`Postgres: ${infrastructure.postgres}\nNATS:     ${infrastructure.nats}`);

build();

const stack = await startStack({ port, env: { ...env, ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}) } }).catch(async (error) => {
  console.error(`Could not start the stack: ${error.message}`);
  await infrastructure.stop();
  process.exit(1);
});
const apiKey = await developmentKey(stack.gatewayUrl);
console.log(`
Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.
  Gateway:  ${stack.gatewayUrl}   (API docs: ${stack.gatewayUrl}/docs)
  API key:  ${apiKey ?? '(set ADMIN_TOKEN to create one: npm run keys -- create-org "Acme")'}
  Try:      curl -H "Authorization: Bearer ${apiKey ?? '<key>'}" ${stack.gatewayUrl}/api/v1/event-types
Ctrl-C stops everything.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping ...');
    await stack.stop();
    // After the services, which drain into Postgres and NATS until they exit.
    await infrastructure.stop();
    process.exit(0);
  });
}
for (const { name, child } of stack.children) {
  child.once('exit', (code) => {
    if (!stopping) console.error(`[${name}] exited unexpectedly (code ${code}); the others keep running.`);
  });
}

/** The development organization's key: reused from .dev-api-key while it still works, else created. */
async function developmentKey(gatewayUrl) {
  if (existsSync(KEY_FILE)) {
    const saved = readFileSync(KEY_FILE, 'utf8').trim();
    const check = await fetch(`${gatewayUrl}/api/v1/event-types?limit=1`, { headers: { authorization: `Bearer ${saved}` } });
    if (check.status !== 401) return saved;
  }
  if (!adminToken) return null;
  const response = await fetch(`${gatewayUrl}/admin/v1/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Development', timezone: 'UTC' }),
  });
  if (response.status !== 201) throw new Error(`could not create the development organization: ${await response.text()}`);
  const { data } = await response.json();
  writeFileSync(KEY_FILE, `${data.api_key}\n`, { mode: 0o600 });
  console.log(`Created the development organization ${data.id}; its key is saved in .dev-api-key (git-ignored).`);
  return data.api_key;
}

/** DATABASE_URL and NATS_URL as given, else from START_INFRA's choice; with a line each on where they came from. */
async function chooseInfrastructure() {
  const given = { postgres: process.env.DATABASE_URL, nats: process.env.NATS_URL };
  const problem = await checkInfrastructure(given.postgres, given.nats);
  if (problem) throw new Error(problem);
  if (given.postgres && given.nats) {
    return { databaseUrl: given.postgres, natsUrl: given.nats, postgres: 'DATABASE_URL', nats: 'NATS_URL', stop: async () => undefined };
  }
  const found = await provideInfrastructure({
    mode: infraMode('START_INFRA'),
    local: { postgresUrl: `postgres://postgres@127.0.0.1:5432/${DATABASE}`, natsUrl: 'nats://127.0.0.1:4222' },
    dataDir: resolve(ROOT, process.env.START_DATA_DIR || '.data'),
    root: ROOT,
    skip: { postgres: Boolean(given.postgres), nats: Boolean(given.nats) },
    containers: {
      available: async () => {
        build();
        const { containerEngineAnswers } = await import('@app/testkit');
        return containerEngineAnswers();
      },
      postgres: async () => {
        build();
        const { keptPostgresContainer } = await import('@app/testkit');
        return keptPostgresContainer();
      },
      nats: async () => {
        build();
        const { keptNatsContainer } = await import('@app/testkit');
        return keptNatsContainer();
      },
    },
  });
  const databaseUrl = given.postgres ?? withDatabase(found.postgres.url);
  return {
    databaseUrl,
    natsUrl: given.nats ?? found.nats.url,
    postgres: given.postgres ? 'DATABASE_URL' : found.postgres.description,
    nats: given.nats ? 'NATS_URL' : found.nats.description,
    stop: found.stop,
  };
}

function withDatabase(url) {
  const own = new URL(url);
  own.pathname = `/${DATABASE}`;
  return own.toString();
}
