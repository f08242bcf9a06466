import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@app/contracts';
import { serviceDatabaseEnv } from '@scheduling-shop/testkit';
import { freePorts } from './free-ports.js';

const ENTRYPOINT = join(import.meta.dirname, '..', '..', 'ops', 'pgbouncer', 'entrypoint.sh');

export interface RunningPgBouncer {
  /** `host:port` to connect to instead of Postgres. */
  readonly host: string;
  /** Everything PgBouncer logged so far (its log names every login: `login attempt: db=… user=…`). */
  log(): string;
  /**
   * Points it at another upstream Postgres port (a promoted standby), as a managed database's DNS switch would: the
   * configuration is rewritten and PgBouncer reloads it (SIGHUP); new server connections go there.
   */
  repoint(port: number): void;
  stop(): Promise<void>;
}

/**
 * PgBouncer (Debian's `pgbouncer`; CI installs it) started by the image's own entrypoint (ops/pgbouncer), in front of
 * the run's Postgres, with the service roles of the test harness as its users. PgBouncer refuses to run as root:
 * as root, it runs as `nobody`.
 */
export async function startPgBouncer(adminUrl: string): Promise<RunningPgBouncer> {
  const users = mkdtempSync(join(tmpdir(), 'pgbouncer-users-'));
  chmodSync(users, 0o755);
  for (const service of SERVICE_NAMES) {
    const file = join(users, `${service.replaceAll('-', '_')}_database_url`);
    writeFileSync(file, serviceDatabaseEnv(adminUrl, service).DATABASE_URL, { mode: 0o644 });
  }
  const upstream = new URL(adminUrl);
  const port = await freePorts(); // PgBouncer takes no port 0
  const configDir = join(tmpdir(), `pgbouncer-config-${port}`);
  const env = {
    ...process.env,
    PGBOUNCER_USERS_DIR: users,
    PGBOUNCER_CONFIG_DIR: configDir,
    PGBOUNCER_UPSTREAM_HOST: upstream.hostname,
    PGBOUNCER_UPSTREAM_PORT: upstream.port || '5432',
    PGBOUNCER_LISTEN_ADDR: '127.0.0.1',
    PGBOUNCER_PORT: String(port),
  };
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = asRoot
    ? spawn('runuser', ['-u', 'nobody', '--', 'bash', ENTRYPOINT], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('bash', [ENTRYPOINT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`PgBouncer did not start:\n${output}`)), 10_000);
    const check = setInterval(() => {
      if (/listening on 127\.0\.0\.1:\d+/.test(output)) done(resolve);
      else if (child.exitCode !== null)
        done(() => reject(new Error(`PgBouncer exited (is the Debian package pgbouncer installed?):\n${output}`)));
    }, 50);
    const done = (then: () => void) => {
      clearTimeout(deadline);
      clearInterval(check);
      then();
    };
    child.once('error', (error) => done(() => reject(new Error(`PgBouncer could not be started: ${error.message}`))));
  });
  return {
    host: `127.0.0.1:${port}`,
    log: () => output,
    repoint(upstreamPort) {
      const ini = join(configDir, 'pgbouncer.ini');
      writeFileSync(ini, readFileSync(ini, 'utf8').replace(/^\* = host=(\S+) port=\d+$/m, `* = host=$1 port=${upstreamPort}`));
      // The pgbouncer process itself (under runuser when this is root), found by its configuration file.
      const reloaded = spawnSync('pkill', ['-HUP', '-f', `^pgbouncer ${ini}$`]);
      if (reloaded.status !== 0) throw new Error(`PgBouncer was not found to reload (${reloaded.status})`);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
