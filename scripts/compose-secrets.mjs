// `npm run compose:secrets`: writes the files docker-compose.yml mounts as secrets, with random values, into
// SECRETS_DIR (default ./secrets, git-ignored). Existing files are kept, so running it again changes nothing.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
write('database_url', `postgres://postgres:${password}@postgres:5432/scheduling_shop`);
write('admin_token', token());
write('calendar_encryption_keys', `k1:${randomBytes(32).toString('base64')}`);
write('oauth_state_secret', token());
console.log(`secrets in ${dir}`);
