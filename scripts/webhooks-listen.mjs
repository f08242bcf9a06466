// `npm run webhooks:listen -- --port 4000 --secret whsec_... [--fail]`: a local webhook receiver that verifies and
// prints each delivery (services/webhooks/src/cli/listen.ts); `--fail` answers 500 to watch the retries.
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync, spawnSync } = await import('node:child_process');
const { join } = await import('node:path');
const ROOT = join(import.meta.dirname, '..');

execFileSync('npx', ['turbo', 'run', 'build', '--filter=@app/webhooks', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
const result = spawnSync(process.execPath, [join(ROOT, 'services', 'webhooks', 'dist', 'cli', 'listen.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
