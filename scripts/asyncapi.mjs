// `npm run asyncapi:snapshot`: writes asyncapi/asyncapi.json, the AsyncAPI 3 document of the domain events that the
// gateway serves at /asyncapi.json (generated from the zod contracts of @app/contracts), unless it breaks the committed
// one. `npm run asyncapi:check` (also a step of `npm test`): the generated document against the committed one; a breaking
// change of an event's payload passes only with the next schema_version, which keeps the previous one readable.
// `node scripts/asyncapi.mjs check|snapshot [--root DIR]` (DIR: another checkout).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { join, resolve } = await import('node:path');
const { checkEventContracts, writeEventSnapshot } = await import('../packages/openapi-gate/src/index.ts');

const [command, ...options] = process.argv.slice(2);
const rootAt = options.indexOf('--root');
const root = rootAt >= 0 && options[rootAt + 1] ? resolve(options[rootAt + 1]) : join(import.meta.dirname, '..');
if (command !== 'check' && command !== 'snapshot') {
  console.error('usage: node scripts/asyncapi.mjs check|snapshot [--root DIR]');
  process.exit(2);
}

// The document comes from the contracts' build (cached by turbo when nothing changed).
execFileSync('npx', ['turbo', 'run', 'build', '--filter=@app/contracts', '--output-logs=errors-only'], {
  cwd: join(import.meta.dirname, '..'),
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
const { asyncApiDocument } = await import('@app/contracts');
const { ok, text } = await (command === 'check' ? checkEventContracts : writeEventSnapshot)(root, asyncApiDocument());
(ok ? console.log : console.error)(text);
process.exit(ok ? 0 : 1);
