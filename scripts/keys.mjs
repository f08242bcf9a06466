// `npm run keys -- create-org "Acme"`: organizations and API keys from a shell (see services/gateway/src/identity/keys-cli.ts).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync, spawnSync } = await import('node:child_process');
const { join } = await import('node:path');
const ROOT = join(import.meta.dirname, '..');

execFileSync('npx', ['turbo', 'run', 'build', '--filter=@app/gateway', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
const KEYS_CLI = join(ROOT, 'services', 'gateway', 'dist', 'identity', 'keys-cli.js');
const result = spawnSync(process.execPath, [KEYS_CLI, ...process.argv.slice(2)], {
  stdio: 'inherit',
  // A developer's tool, as `npm start` is: development unless NODE_ENV says otherwise.
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV || 'development' },
});
process.exit(result.status ?? 1);
