import net from 'node:net';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { containerEngineAnswers, keptNatsContainer, keptPostgresContainer } from '@scheduling-shop/testkit';
import pg from 'pg';
import { getContainerRuntimeClient } from 'testcontainers';
import { afterAll, describe, expect, it } from 'vitest';
import { provideInfrastructure, type ProvidedServer } from '../src/index.ts';

// Names of this run's own: the developer's `scheduling-shop-nats` and `scheduling-shop-postgres` stay as they are.
const NAME = `scheduling-shop-nats-test-${process.pid}`;
const POSTGRES_NAME = `scheduling-shop-postgres-test-${process.pid}`;

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** npm start's choice where nothing answers locally and no nats-server is on PATH: its NATS, and how to stop it. */
async function startWithoutNatsServer(): Promise<{ nats: ProvidedServer; stop: () => Promise<void> }> {
  const provided = await provideInfrastructure({
    mode: 'auto',
    local: {
      postgresUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`,
      natsUrl: `nats://127.0.0.1:${await closedPort()}`,
    },
    dataDir: '/nonexistent',
    env: { PATH: '/nonexistent' },
    skip: { postgres: true },
    containers: {
      available: containerEngineAnswers,
      postgres: () => Promise.reject(new Error('not asked for')),
      nats: () => keptNatsContainer(NAME),
    },
  });
  if (!provided.nats) throw new Error('no NATS was provided');
  return { nats: provided.nats, stop: provided.stop };
}

async function removeContainer(name: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  const container = client.container.getById(name);
  await client.container.stop(container, { timeout: 5 }).catch(() => undefined);
  await client.container.remove(container, { removeVolumes: true }).catch(() => undefined);
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("npm start's kept containers", () => {
  afterAll(() => Promise.all([removeContainer(NAME), removeContainer(POSTGRES_NAME)]));

  it('when nothing answers, no nats-server is on PATH and an engine answers, then NATS runs in a kept container, the same one with its streams at the next start', async () => {
    expect(await containerEngineAnswers()).toBe(true);
    const first = await startWithoutNatsServer();
    expect(first.nats.description).toMatch(new RegExp(`^container ${NAME} \\(\\S+\\) on \\S+:\\d+, kept for the next start$`));
    const before = await connect({ servers: first.nats.url });
    await (await jetstreamManager(before)).streams.add({ name: 'kept_start', subjects: ['kept.start'] });
    await jetstream(before).publish('kept.start', 'hello');
    await before.close();
    await first.stop();

    const second = await startWithoutNatsServer();
    expect(second.nats.description).toMatch(new RegExp(`^container ${NAME} `));
    const after = await connect({ servers: second.nats.url });
    const info = await (await jetstreamManager(after)).streams.info('kept_start');
    expect(info.state.messages).toBe(1);
    await after.close();
    await second.stop();
    const client = await getContainerRuntimeClient();
    const running = (await client.container.list()).filter((container) => container.Names.some((name) => name.endsWith(NAME)));
    expect(running).toHaveLength(1);
  }, 120_000);

  it('when START_INFRA=containers, then Postgres and NATS run in kept containers, and the next start finds the same data', async () => {
    const start = async () =>
      provideInfrastructure({
        mode: 'containers',
        local: { postgresUrl: 'postgres://postgres@127.0.0.1:5432/postgres', natsUrl: 'nats://127.0.0.1:4222' },
        dataDir: '/nonexistent',
        containers: {
          available: containerEngineAnswers,
          postgres: () => keptPostgresContainer(POSTGRES_NAME),
          nats: () => keptNatsContainer(NAME),
        },
      });
    const first = await start();
    expect(first.postgres.description).toMatch(new RegExp(`^container ${POSTGRES_NAME} `));
    expect(first.nats.description).toMatch(new RegExp(`^container ${NAME} `));
    await query(first.postgres.url, `CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')`);
    await first.stop();
    const second = await start();
    expect(await query(second.postgres.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
    await second.stop();
  }, 180_000);
});
