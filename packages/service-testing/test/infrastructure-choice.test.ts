import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { containerEngineAnswers, isReachable } from '@scheduling-shop/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideInfrastructure } from '@app/dev-stack';
import { findInfrastructure } from '../src/infrastructure.js';

/** Two ports nothing listens on: the "local servers" of a machine that has none. */
async function closedLocal(): Promise<{ postgresUrl: string; natsUrl: string }> {
  const [postgres, nats] = await Promise.all([closedPort(), closedPort()]);
  return { postgresUrl: `postgres://postgres@127.0.0.1:${postgres}/postgres`, natsUrl: `nats://127.0.0.1:${nats}` };
}

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function portOf(url: string): number {
  return Number(new URL(url.replace(/^nats:/, 'http:')).port);
}

const noContainers = {
  available: async () => false,
  postgres: () => Promise.reject(new Error('no containers here')),
  nats: () => Promise.reject(new Error('no containers here')),
};

describe('TEST_INFRA', () => {
  it('when embedded is asked for while the local servers answer, then Postgres is an embedded 18 with the extensions and NATS a nats-server child with JetStream', async () => {
    expect(await isReachable('127.0.0.1', 5432)).toBe(true);
    const infrastructure = await findInfrastructure('embedded');
    try {
      expect(infrastructure.descriptions.postgres).toMatch(/^embedded 18\.\d+ in .+postgres \(port \d+\)$/);
      expect(infrastructure.descriptions.nats).toMatch(/^nats-server \S+ from \S*nats-server, store in .+nats \(port \d+\)$/);
      expect(portOf(infrastructure.postgresAdminUrl)).not.toBe(5432);
      expect(portOf(infrastructure.natsUrl)).not.toBe(4222);
      const [row] = await query<{ server_version_num: string }>(infrastructure.postgresAdminUrl, 'SHOW server_version_num');
      expect(Number(row?.server_version_num)).toBeGreaterThanOrEqual(180_000);
      await query(infrastructure.postgresAdminUrl, 'CREATE EXTENSION btree_gist; CREATE EXTENSION pg_trgm; CREATE EXTENSION btree_gin');
      // A generated password, not trust: a URL without it is refused.
      const withoutPassword = new URL(infrastructure.postgresAdminUrl);
      withoutPassword.password = '';
      await expect(query(withoutPassword.toString(), 'SELECT 1')).rejects.toThrow(/password/);
      const nc = await connect({ servers: infrastructure.natsUrl });
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'choice_test', subjects: ['choice.test'] });
      expect((await jsm.streams.info('choice_test')).config.name).toBe('choice_test');
      await nc.close();
    } finally {
      await infrastructure.stop();
    }
    expect(await isReachable('127.0.0.1', portOf(infrastructure.postgresAdminUrl))).toBe(false);
    expect(await isReachable('127.0.0.1', portOf(infrastructure.natsUrl))).toBe(false);
  }, 60_000);

  it('when nothing answers on the local addresses, then auto takes the embedded Postgres and the nats-server on PATH', async () => {
    const infrastructure = await findInfrastructure('auto', { local: await closedLocal() });
    try {
      expect(infrastructure.descriptions.postgres).toMatch(/^embedded 18\./);
      expect(infrastructure.descriptions.nats).toMatch(/^nats-server .+ from /);
      expect(await query(infrastructure.postgresAdminUrl, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await infrastructure.stop();
    }
  }, 60_000);

  it('when nothing answers, no nats-server is on PATH and no container engine answers, then one message names the install commands and nothing is started', async () => {
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
    try {
      expect(await containerEngineAnswers()).toBe(false);
      const local = await closedLocal();
      const started = findInfrastructure('auto', { local, env: { PATH: '/nonexistent' } });
      await expect(started).rejects.toThrow(/sudo apt-get install nats-server/);
      const message = await started.catch((error: Error) => error.message);
      expect(message).toMatch(/brew install nats-server/);
      expect(message).toMatch(/winget install nats-io\.nats-server/);
      expect(message).toMatch(/start Docker or Podman/);
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });

  it('when embedded is asked for and no nats-server is on PATH, then it says so rather than taking the local NATS', async () => {
    await expect(findInfrastructure('embedded', { env: { PATH: '/nonexistent' } })).rejects.toThrow(
      /no nats-server is on PATH \(mode embedded\)[\s\S]*apt-get install nats-server/,
    );
  });
});

describe('the embedded Postgres of npm start (.data/postgres)', () => {
  let dataDir: string;
  const start = async () =>
    provideInfrastructure({ mode: 'embedded', local: await closedLocal(), dataDir, containers: noContainers, root: dataDir });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'start-data-'));
    chmodSync(dataDir, 0o755);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when stopped and started again, then its data and password are kept and it listens on a free port again', async () => {
    const first = await start();
    expect(first.postgres.description).toMatch(/^embedded 18\.\d+ in \S+postgres \(port \d+\)$/);
    await query(first.postgres.url, 'CREATE TABLE kept (value text); INSERT INTO kept VALUES ($$still here$$)');
    await first.stop();
    expect(await isReachable('127.0.0.1', portOf(first.postgres.url))).toBe(false);

    const second = await start();
    try {
      expect(new URL(second.postgres.url).password).toBe(new URL(first.postgres.url).password);
      expect(await query(second.postgres.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('when a crashed run left a postmaster.pid whose pid is now another process, then the next start removes it and starts', async () => {
    const first = await start();
    await first.stop();
    // The pid of a crashed server, since given to an unrelated process: Postgres alone refuses to start then.
    const unrelated = spawn('sleep', ['60']);
    try {
      writeFileSync(join(dataDir, 'postgres', 'postmaster.pid'), `${unrelated.pid}\n${join(dataDir, 'postgres')}\n`);
      const second = await start();
      try {
        expect(await query(second.postgres.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
        expect(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]).not.toBe(String(unrelated.pid));
      } finally {
        await second.stop();
      }
    } finally {
      unrelated.kill();
    }
  }, 60_000);

  it('when the run that started it was killed and left its server running, then the next start stops that server and starts on the same data', async () => {
    const first = await start();
    const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const owner = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${postmaster}/status`, 'utf8'))?.[1]);
    process.kill(owner, 'SIGKILL'); // the servers' process, killed: nothing stops its Postgres and nats-server
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await isReachable('127.0.0.1', portOf(first.postgres.url))).toBe(true);
    expect(await isReachable('127.0.0.1', portOf(first.nats.url))).toBe(true);

    const second = await start();
    try {
      expect(await isReachable('127.0.0.1', portOf(first.postgres.url))).toBe(false);
      // Its nats-server too, orphaned with it: stopped, not left running beside the new one.
      expect(await isReachable('127.0.0.1', portOf(first.nats.url))).toBe(false);
      expect(await query(second.postgres.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('when another npm start runs on the same folder, then a second start refuses and leaves the first one running', async () => {
    const first = await start();
    try {
      await expect(start()).rejects.toThrow(/is in use by another npm start/);
      expect(await query(first.postgres.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
    } finally {
      await first.stop();
    }
  }, 60_000);
});
