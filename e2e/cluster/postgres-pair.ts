import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePorts } from '../support/free-ports.js';

/** The newest PostgreSQL of Debian's layout (/usr/lib/postgresql/<major>/bin), or PG_BIN_DIR. */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(join(root, entry, 'bin', 'pg_ctl'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql), or set PG_BIN_DIR');
  return join(root, newest, 'bin');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A primary and a streaming standby (pg_basebackup), with synchronous replication: a commit returns only once the
 * standby has it, so a promoted standby holds every commit a client was told about. The servers run as the `postgres`
 * user when this process is root (initdb refuses root), on loopback ports, in a temporary folder.
 */
export class PostgresPair {
  private constructor(
    private readonly dir: string,
    private readonly bin: string,
    readonly primaryPort: number,
    readonly standbyPort: number,
  ) {}

  static async start(database: string): Promise<PostgresPair> {
    const bin = binDir();
    const dir = mkdtempSync(join(tmpdir(), 'pg-pair-'));
    chmodSync(dir, 0o755);
    const [primaryPort, standbyPort] = [await freePorts(), await freePorts()];
    const pair = new PostgresPair(dir, bin, primaryPort, standbyPort);
    if (process.getuid?.() === 0) {
      const { uid, gid } = postgresUser();
      chownSync(dir, uid, gid);
    }
    pair.run('initdb', ['-D', pair.primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
    appendFileSync(
      join(pair.primaryDir, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        // Synchronous: every commit waits for the standby to have it (the test's guarantee, not asynchronous's).
        "synchronous_standby_names = 'standby1'",
        'synchronous_commit = on',
        'max_connections = 200',
        'fsync = off',
        '',
      ].join('\n'),
    );
    appendFileSync(join(pair.primaryDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n');
    pair.run('pg_ctl', ['-D', pair.primaryDir, '-l', join(dir, 'primary.log'), '-w', 'start']);
    pair.run('pg_basebackup', [
      '-d',
      `host=127.0.0.1 port=${primaryPort} user=postgres application_name=standby1`,
      '-D',
      pair.standbyDir,
      '-R',
      '-X',
      'stream',
    ]);
    // Promoted, it must not wait for a standby of its own (there is none): its commits are not held.
    appendFileSync(join(pair.standbyDir, 'postgresql.auto.conf'), `port = ${standbyPort}\nsynchronous_standby_names = ''\n`);
    pair.run('pg_ctl', ['-D', pair.standbyDir, '-l', join(dir, 'standby.log'), '-w', 'start']);
    await pair.waitForSynchronousStandby();
    await pair.query(primaryPort, `CREATE DATABASE ${database}`);
    return pair;
  }

  private get primaryDir(): string {
    return join(this.dir, 'primary');
  }

  private get standbyDir(): string {
    return join(this.dir, 'standby');
  }

  /** A superuser's URL of `database` on the server at `port`. */
  url(port: number, database: string): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  /** SIGKILL to the primary's postmaster, as a crashed host: nothing is shut down cleanly. */
  killPrimary(): void {
    const pid = Number(readFileSync(join(this.primaryDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
  }

  /** Promotes the standby and waits until it accepts writes. */
  async promoteStandby(): Promise<void> {
    this.run('pg_ctl', ['-D', this.standbyDir, '-w', 'promote']);
    for (;;) {
      const { rows } = await this.query(this.standbyPort, 'SELECT pg_is_in_recovery() AS recovering');
      if (rows[0]?.recovering === false) return;
      await sleep(100);
    }
  }

  async query(port: number, sql: string, params: unknown[] = [], database = 'postgres'): Promise<pg.QueryResult> {
    const client = new pg.Client({ connectionString: this.url(port, database) });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    for (const data of [this.standbyDir, this.primaryDir]) {
      if (existsSync(join(data, 'postmaster.pid')))
        spawnSync(join(this.bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], this.asOwner());
    }
    // The primary was SIGKILLed: its backends notice the postmaster is gone and exit by themselves.
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async waitForSynchronousStandby(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await this.query(
        this.primaryPort,
        "SELECT 1 FROM pg_stat_replication WHERE application_name = 'standby1' AND sync_state = 'sync'",
      );
      if (rows.length > 0) return;
      if (Date.now() > deadline) throw new Error('the standby did not become synchronous');
      await sleep(200);
    }
  }

  private run(tool: string, args: string[]): void {
    try {
      execFileSync(join(this.bin, tool), args, { ...this.asOwner(), stdio: 'pipe' });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: Buffer; stdout?: Buffer };
      throw new Error(`${tool} failed: ${stderr?.toString() ?? ''}${stdout?.toString() ?? ''}`, { cause: error });
    }
  }

  private asOwner(): { uid?: number; gid?: number; cwd: string } {
    return process.getuid?.() === 0 ? { ...postgresUser(), cwd: this.dir } : { cwd: this.dir };
  }
}

/** The uid and gid of the `postgres` user (Debian's package creates it). */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user: initdb cannot run as root (apt-get install postgresql creates it)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
