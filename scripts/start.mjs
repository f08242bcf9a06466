// `npm start`: finds or starts Postgres and NATS (START_INFRA, @app/dev-stack: the local servers, else an embedded
// Postgres and a nats-server with their data in .data/, else a kept container), builds what changed, starts the seven
// processes with readable prefixed logs, waits until all are ready, creates a development organization on first
// start and prints the gateway URL and its API key. Ctrl-C stops everything cleanly, the embedded servers last.
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { join } = await import('node:path');
// The package runs as TypeScript, unbuilt: its choice of servers comes before the build, which it may not need.
const { chooseStartInfrastructure, developmentKey, startStack, widgetDemoUrl } = await import('@app/dev-stack');

const ROOT = join(import.meta.dirname, '..');
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

const infrastructure = await chooseStartInfrastructure({ root: ROOT, database: 'scheduling_shop', beforeContainers: build }).catch(
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
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
// .dev-api-key is git-ignored.
const apiKey = await developmentKey(stack.gatewayUrl, { keyFile: join(ROOT, '.dev-api-key'), adminToken });
// The booking widget's demo page (docs/booking-widget.md); a failure to set it up is reported, never fatal.
const widgetDemo = apiKey
  ? await widgetDemoUrl(stack.gatewayUrl, { apiKey, stateFile: join(ROOT, '.dev-widget-demo.json') }).catch(
      (error) => `(not available: ${error.message.slice(0, 200)})`,
    )
  : '(needs the API key above)';
console.log(`
Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.
  Gateway:  ${stack.gatewayUrl}   (API docs: ${stack.gatewayUrl}/docs)
  API key:  ${apiKey ?? '(set ADMIN_TOKEN to create one: npm run keys -- create-org "Acme")'}
  Try:      curl -H "Authorization: Bearer ${apiKey ?? '<key>'}" ${stack.gatewayUrl}/api/v1/event-types
  Widget:   ${widgetDemo}
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
