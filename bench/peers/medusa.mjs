// The peer of `npm run bench:peers`: Medusa v2 in bench/peers/medusa, installed (`npm ci`, the pinned lock file),
// migrated and seeded on a database of its own only when that is not done yet, then started as a production server.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { readPeersEnv } from '../../scripts/script-env.mjs';
import { catalogFingerprint, PRODUCT_COUNT, products } from './products.mjs';

export const MEDUSA_DIR = join(import.meta.dirname, 'medusa');
const MEDUSA_BIN = join(MEDUSA_DIR, 'node_modules', '.bin', 'medusa');
// The names seed.ts gives them.
const REGION_NAME = 'Bench';
const KEY_TITLE = 'Bench peers';

export function medusaVersion() {
  try {
    return JSON.parse(execFileSync('npm', ['ls', '@medusajs/medusa', '--json'], { cwd: MEDUSA_DIR, encoding: 'utf8' })).dependencies[
      '@medusajs/medusa'
    ].version;
  } catch {
    return 'unknown';
  }
}

/** `npm ci` in bench/peers/medusa when its node_modules are missing (about 700 MB, a few minutes). */
export function installMedusa() {
  if (existsSync(MEDUSA_BIN)) return false;
  console.log('installing Medusa (npm ci in bench/peers/medusa, a few minutes) ...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: MEDUSA_DIR, stdio: 'inherit' });
  return true;
}

const logLevel = readPeersEnv().PEERS_MEDUSA_LOG_LEVEL;
const medusaEnv = (databaseUrl, extra = {}) => ({
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  MEDUSA_DISABLE_TELEMETRY: 'true',
  // Medusa logs every request at its default level ("http"): the bench's load would be mostly log lines.
  LOG_LEVEL: logLevel,
  ...extra,
});

const runMedusa = (args, databaseUrl, extra) =>
  execFileSync(MEDUSA_BIN, args, { cwd: MEDUSA_DIR, env: medusaEnv(databaseUrl, extra), stdio: ['ignore', 'ignore', 'inherit'] });

const adminUrl = (databaseUrl) => Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).href;
const databaseName = (databaseUrl) => new URL(databaseUrl).pathname.slice(1);

async function query(databaseUrl, text, params = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The region and the publishable key of a complete seed of this catalog, or null (no database, another catalog, a seed cut short). */
async function existingSeed(databaseUrl) {
  const [exists] = await query(adminUrl(databaseUrl), 'SELECT 1 FROM pg_database WHERE datname = $1', [databaseName(databaseUrl)]);
  if (!exists) return null;
  try {
    const [region] = await query(
      databaseUrl,
      `SELECT id, metadata->>'bench_seed' AS seed FROM region WHERE name = $1 AND deleted_at IS NULL`,
      [REGION_NAME],
    );
    const [key] = await query(databaseUrl, `SELECT token FROM api_key WHERE title = $1 AND type = 'publishable' AND revoked_at IS NULL`, [
      KEY_TITLE,
    ]);
    const [{ count }] = await query(
      databaseUrl,
      `SELECT count(*)::int AS count FROM product WHERE handle LIKE 'bench-%' AND deleted_at IS NULL`,
    );
    if (region?.seed !== catalogFingerprint() || !key || count !== PRODUCT_COUNT) return null;
    return { regionId: region.id, publishableKey: key.token };
  } catch {
    return null; // Not migrated, or only partly.
  }
}

/**
 * The seeded peer: reused when a complete seed of this catalog is there (PEERS_RESEED=1 seeds again), else the
 * database is created anew, migrated (`medusa db:migrate`) and seeded (`medusa exec src/scripts/seed.ts`). Products
 * then get the ages of products.mjs (Medusa stamps them at insert), and the tables statistics and a visibility map
 * (`VACUUM (ANALYZE)`: this machine's Postgres runs without autovacuum).
 */
export async function seedMedusa(databaseUrl, { reseed = false } = {}) {
  const existing = reseed ? null : await existingSeed(databaseUrl);
  if (existing) return { ...existing, seeded: false };
  const name = databaseName(databaseUrl);
  console.log(`seeding Medusa on database ${name} (migrations, then ${PRODUCT_COUNT} products: a few minutes) ...`);
  await query(adminUrl(databaseUrl), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await query(adminUrl(databaseUrl), `CREATE DATABASE "${name}"`);
  let startedAt = Date.now();
  runMedusa(['db:migrate'], databaseUrl);
  const migrateS = (Date.now() - startedAt) / 1000;
  const dir = mkdtempSync(join(tmpdir(), 'bench-peers-'));
  try {
    const file = join(dir, 'products.json');
    writeFileSync(file, JSON.stringify(products()));
    startedAt = Date.now();
    runMedusa(['exec', './src/scripts/seed.ts'], databaseUrl, { PEER_PRODUCTS_FILE: file, PEER_SEED_FINGERPRINT: catalogFingerprint() });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const seedS = (Date.now() - startedAt) / 1000;
  await query(
    databaseUrl,
    `UPDATE product SET created_at = now() - substr(handle, 7)::int * interval '1 second' WHERE handle LIKE 'bench-%'`,
  );
  await query(databaseUrl, 'VACUUM (ANALYZE)');
  const seed = await existingSeed(databaseUrl);
  if (!seed) throw new Error('the Medusa seed did not complete (see its output above)');
  console.log(`  migrated in ${migrateS.toFixed(0)} s, seeded in ${seedS.toFixed(0)} s`);
  return { ...seed, seeded: true, migrate_s: +migrateS.toFixed(1), seed_s: +seedS.toFixed(1) };
}

/** `medusa start` on `port`, resolved once its store API answers; `stop()` ends it (and what it forked). */
export async function startMedusa(databaseUrl, port, publishableKey) {
  const child = spawn(MEDUSA_BIN, ['start', '--port', String(port)], {
    cwd: MEDUSA_DIR,
    env: medusaEnv(databaseUrl),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Its own process group (detached): the server and any worker it forked.
    process.kill(-child.pid, 'SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!killed) process.kill(-child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}:\n${stderr}`);
    const response = await fetch(`${url}/store/products?limit=1`, { headers: { 'x-publishable-api-key': publishableKey } }).catch(
      () => null,
    );
    if (response?.ok) return { url, pid: child.pid, stop };
    await sleep(1000);
  }
  await stop();
  throw new Error(`medusa start did not answer on ${url} within 180 s:\n${stderr}`);
}
