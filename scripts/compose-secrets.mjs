// `npm run compose:secrets`: writes the files docker-compose.yml mounts as secrets, with random values, into
// SECRETS_DIR (default ./secrets, git-ignored). Existing files are kept, so running it again changes nothing.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { callerAssertionKeys } from '@app/dev-stack';
import { natsConfig } from './nats-config.mjs';

const dir = resolve(process.env.SECRETS_DIR ?? join(import.meta.dirname, '..', 'secrets'));
// The folder keeps other users of the host out; the files must be readable by the containers' own users.
mkdirSync(dir, { recursive: true, mode: 0o700 });

const token = () => randomBytes(32).toString('base64url');
const write = (name, value) => {
  const file = join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  writeFileSync(file, `${value}\n`, { mode: 0o644 });
  chmodSync(file, 0o644);
  console.log(`wrote ${file}`);
  return value;
};

const password = write('postgres_password', token());
// The superuser's URL goes to the `<service>-migrate` one-shots only; each service gets its own role's URL (with a
// random password of its own), which that one-shot creates.
const adminUrl = write('database_admin_url', `postgres://postgres:${password}@postgres:5432/scheduling_shop`);
for (const service of ['gateway', 'bookings', 'scheduling', 'catalog', 'events', 'calendar_sync', 'webhooks']) {
  const own = new URL(adminUrl);
  own.username = `${service}_service`; // the role names of the testkit's serviceRoleName (no build needed here)
  own.password = token();
  const direct = new URL(write(`${service}_database_url`, own.toString()));
  // The same login through PgBouncer (ops/compose/pgbouncer.yml).
  direct.host = 'pgbouncer:6432';
  write(`${service}_pooled_database_url`, direct.toString());
}
write('admin_token', token());
write('calendar_encryption_keys', `k1:${randomBytes(32).toString('base64')}`);
write('oauth_state_secret', token());
// The caller assertion secrets, one per service, and the gateway's file of all of them: written together, or not at
// all (kept files keep matching each other).
if (!existsSync(join(dir, 'caller_assertion_signing_keys'))) {
  const keys = callerAssertionKeys(`compose-${new Date().toISOString().slice(0, 10)}`);
  for (const [service, env] of Object.entries(keys.services)) {
    write(`caller_assertion_secrets_${service.replace('-', '_')}`, env.CALLER_ASSERTION_SECRETS);
  }
  write('caller_assertion_signing_keys', keys.gateway.CALLER_ASSERTION_SIGNING_KEYS);
}
// Each service's NATS password (kept when present), and the NATS server's users with their bcrypt hashes and the
// rights the topology gives them: rewritten every time, so a new version's topology reaches the NATS container.
const authorization = join(dir, 'nats_authorization.conf');
writeFileSync(authorization, await natsConfig({ dir }), { mode: 0o644 });
chmodSync(authorization, 0o644);
console.log(`wrote ${authorization}`);
console.log(`secrets in ${dir}`);
