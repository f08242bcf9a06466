import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isReachable } from '@scheduling-shop/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const KEY_FILE = join(ROOT, '.dev-api-key');

interface Started {
  child: ChildProcess;
  output: () => string;
  gatewayUrl: string;
  apiKey: string;
}

/** `npm start` as a user runs it (its own process group, as a terminal's foreground job), DATABASE_URL and NATS_URL unset. */
function npmStart(
  env: Record<string, string>,
  given: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const { DATABASE_URL: _db, NATS_URL: _nats, ...rest } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...rest, NODE_ENV: 'development', PORT: '0', ...given, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function ready(started: ReturnType<typeof npmStart>): Promise<Started> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && !/Ready in/.test(started.output())) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited (${started.child.exitCode}):\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const gatewayUrl = /Gateway: +(http:\/\/\S+)/.exec(started.output())?.[1];
  const apiKey = /API key: +(sk_\S+)/.exec(started.output())?.[1];
  if (!gatewayUrl || !apiKey) throw new Error(`npm start was not ready:\n${started.output().slice(-3000)}`);
  return { ...started, gatewayUrl, apiKey };
}

/** Ctrl-C in the terminal: SIGINT to the whole foreground process group. */
async function ctrlC(started: ReturnType<typeof npmStart>): Promise<number | null> {
  process.kill(-(started.child.pid as number), 'SIGINT');
  return started.exited;
}

async function call(started: Started, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${started.gatewayUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${started.apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

function portFrom(output: string, line: RegExp): number {
  return Number(line.exec(output)?.[1]);
}

describe('npm start with START_INFRA=embedded', () => {
  let dataDir: string;
  let savedKey: string | undefined;
  let bookingId: string;
  let firstKey: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
    chmodSync(dataDir, 0o755);
    // npm start keeps the development key in the checkout: the developer's own is put back afterwards.
    savedKey = existsSync(KEY_FILE) ? readFileSync(KEY_FILE, 'utf8') : undefined;
  });
  afterAll(() => {
    if (savedKey === undefined) rmSync(KEY_FILE, { force: true });
    else writeFileSync(KEY_FILE, savedKey, { mode: 0o600 });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the local servers run, then it starts an embedded Postgres and a nats-server of its own, says so, and the Getting-started booking is created', async () => {
    rmSync(KEY_FILE, { force: true });
    const process = npmStart({ START_INFRA: 'embedded', START_DATA_DIR: dataDir });
    const started = await ready(process);
    const output = started.output();
    expect(output).toMatch(/^Postgres: embedded 18\.\d+ in \S+postgres \(port \d+\)$/m);
    expect(output).toMatch(/^NATS: +nats-server \S+ from \S*nats-server, store in \S+nats \(port \d+\)$/m);
    const postgresPort = portFrom(output, /^Postgres: .*\(port (\d+)\)$/m);
    const natsPort = portFrom(output, /^NATS: .*\(port (\d+)\)$/m);
    expect([postgresPort, natsPort]).not.toContain(5432);
    expect(natsPort).not.toBe(4222);

    const schedule = await call(started, 'POST', '/api/v1/schedules', {
      name: 'Consultations',
      timezone: 'Europe/Berlin',
      slot_duration: 30,
    });
    expect(schedule.status).toBe(201);
    const scheduleId = (schedule.body as { data: { id: string } }).data.id;
    const booking = await call(started, 'POST', '/api/v1/bookings', {
      schedule_id: scheduleId,
      start_time: '2030-01-07T09:00:00+01:00',
      end_time: '2030-01-07T09:30:00+01:00',
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(booking.status).toBe(201);
    bookingId = (booking.body as { data: { id: string } }).data.id;
    firstKey = started.apiKey;

    // Ctrl-C reaches npm start and the services, not the embedded servers: they stop after the services, cleanly.
    expect(await ctrlC(process)).toBe(0);
    expect(started.output()).toMatch(/Stopping/);
    expect(await isReachable('127.0.0.1', postgresPort)).toBe(false);
    expect(await isReachable('127.0.0.1', natsPort)).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(readFileSync(join(dataDir, 'postgres.log'), 'utf8')).toMatch(/database system is shut down\s*$/);
  }, 330_000);

  it('when started again, then the organization, its key and the booking are still there', async () => {
    expect(bookingId).toBeDefined();
    const process = npmStart({ START_INFRA: 'embedded', START_DATA_DIR: dataDir });
    try {
      const started = await ready(process);
      expect(started.apiKey).toBe(firstKey);
      expect(started.output()).not.toMatch(/Created the development organization/);
      const booking = await call(started, 'GET', `/api/v1/bookings/${bookingId}`);
      expect(booking.status).toBe(200);
      expect((booking.body as { data: { attendee: { name: string } } }).data.attendee.name).toBe('Ada Lovelace');
    } finally {
      expect(await ctrlC(process)).toBe(0);
    }
  }, 330_000);

  it('when no nats-server is on PATH, then it stops before starting anything with the install command of each system', async () => {
    const process = npmStart({ START_INFRA: 'embedded', START_DATA_DIR: dataDir, PATH: '/nonexistent' });
    expect(await process.exited).toBe(1);
    expect(process.output()).toMatch(/sudo apt-get install nats-server/);
    expect(process.output()).toMatch(/brew install nats-server/);
    expect(process.output()).toMatch(/winget install nats-io\.nats-server/);
    expect(process.output()).not.toMatch(/Building/);
  }, 30_000);

  it('when DATABASE_URL and NATS_URL are set, then they are used as they are and nothing embedded starts, whatever START_INFRA says', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'npm-start-given-'));
    const process = npmStart(
      { START_INFRA: 'embedded', START_DATA_DIR: empty },
      { DATABASE_URL: inject('databaseUrl'), NATS_URL: inject('natsUrl'), NATS_PREFIX: inject('natsPrefix') },
    );
    try {
      const started = await ready(process);
      expect(started.output()).toMatch(/^Postgres: DATABASE_URL$/m);
      expect(started.output()).toMatch(/^NATS: +NATS_URL$/m);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      expect(await ctrlC(process)).toBe(0);
      rmSync(empty, { recursive: true, force: true });
    }
  }, 330_000);
});
