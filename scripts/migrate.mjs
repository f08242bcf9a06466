// `npm run migrate`: applies every service's pending migrations (the same ones each service applies at start).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { join } = await import('node:path');
const ROOT = join(import.meta.dirname, '..');
const SERVICES = ['gateway', 'bookings', 'scheduling', 'catalog', 'events', 'calendar-sync'];

execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
for (const service of SERVICES) {
  // A developer's tool, as `npm start` is: development unless NODE_ENV says otherwise (secrets then fall back).
  execFileSync(process.execPath, [join(ROOT, 'services', service, 'dist', 'migrate.js')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV || 'development' },
  });
}
console.log('All migrations applied.');
