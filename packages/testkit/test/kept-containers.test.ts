import net from 'node:net';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { getContainerRuntimeClient } from 'testcontainers';
import { afterAll, describe, expect, it } from 'vitest';
import { provideInfrastructure } from '../../../scripts/infrastructure.mjs';
import { containerEngineAnswers, keptNatsContainer } from '../src/index.js';

// A name of this run's own: the developer's `scheduling-shop-nats` stays as it is.
const NAME = `scheduling-shop-nats-test-${process.pid}`;

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** npm start's choice (scripts/infrastructure.mjs) where nothing answers locally and no nats-server is on PATH. */
async function startWithoutNatsServer() {
  return provideInfrastructure({
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
}

describe('NATS for npm start from a container', () => {
  afterAll(async () => {
    const client = await getContainerRuntimeClient();
    const container = client.container.getById(NAME);
    await client.container.stop(container, { timeout: 5 }).catch(() => undefined);
    await client.container.remove(container, { removeVolumes: true }).catch(() => undefined);
  });

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
});
