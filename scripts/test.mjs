// `npm test`: typecheck and build every workspace (generating Prisma clients first), lint, find dead code (knip), check formatting, find
// import cycles (dpdm), lint the
// OpenAPI snapshot (redocly.yaml) and run its breaking-change gate (scripts/openapi-gate.mjs), the AsyncAPI gate
// (scripts/asyncapi.mjs), the configuration page's check (scripts/config-docs.mjs), then every vitest suite
// on real Postgres and NATS. Extra arguments go to vitest (`npm test -- --project events`).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { spawnSync } = await import('node:child_process');
const { join } = await import('node:path');
const ROOT = join(import.meta.dirname, '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(command, args) {
  console.log(`\n> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('npx', ['turbo', 'run', 'typecheck', 'build', '--output-logs=errors-only']);
run('npx', ['eslint', '.']);
// Unused files, exports and dependencies (knip.json). The internal packages (kit, contracts, service-testing,
// openapi-gate) are checked with entry exports too: each exports only what something outside it imports. Their
// tsconfig.json names outDir so knip maps the dist/ an import resolves to back to src/.
run('npx', ['knip']);
run('npx', ['prettier', '--check', '.']);
// No import cycle anywhere, type-only imports included (dpdm).
run('npm', ['run', '--silent', 'check:cycles']);
// Every service file where STYLE.md's skeleton puts it.
run('npm', ['run', '--silent', 'check:skeleton']);
// The committed OpenAPI snapshot: redocly's recommended rules (redocly.yaml), then the breaking-change gate.
run('npx', ['redocly', 'lint', '--format=summary']);
run('node', ['scripts/openapi-gate.mjs', 'check']);
// The committed AsyncAPI snapshot of the domain events against the contracts: a breaking change needs a new schema_version.
run('node', ['scripts/asyncapi.mjs', 'check']);
// docs/configuration.md against the config schemas' metadata (`npm run docs:config` writes it).
run('node', ['scripts/config-docs.mjs', 'check']);
const { runVitest } = await import('./run-vitest.mjs');
process.exit(runVitest(process.argv.slice(2), { cwd: ROOT, env }));
