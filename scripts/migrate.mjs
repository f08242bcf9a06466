// `npm run migrate`: applies every service's pending migrations (the same ones each service applies at start).
import { ensureModernNode } from './ensure-node.mjs';
ensureModernNode();

const { execFileSync } = await import('node:child_process');
const { join } = await import('node:path');
const ROOT = join(import.meta.dirname, '..');
const SERVICES = ['gateway', 'bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'];

execFileSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
const { serviceDatabaseEnv } = await import('@scheduling-shop/testkit');
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop';
for (const service of SERVICES) {
  // As `npm start` runs them: DATABASE_URL is a superuser's, who creates each service's role and then migrates as the
  // migration role; with DATABASE_MIGRATION_URL set, the roles exist already and both variables are used as given.
  const database = process.env.DATABASE_MIGRATION_URL ? {} : serviceDatabaseEnv(adminUrl, service);
  execFileSync(process.execPath, [join(ROOT, 'services', service, 'dist', 'migrate.js')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...database },
  });
}
console.log('All migrations applied.');
