import type { StartedTestContainer } from 'testcontainers';
import { joinNetwork, keepAs, type ContainerOptions } from './container-options.js';
import { imageFor } from './images.js';
import { startExplained } from './start-errors.js';

const USER = 'postgres';
const PASSWORD = 'postgres';

export interface StartedPostgres {
  readonly container: StartedTestContainer;
  /** The superuser on database `postgres`, reached from this machine. */
  readonly url: string;
  /** The same from another container on the options' network (by alias); undefined without a network. */
  readonly networkUrl: string | undefined;
  /** Stops and removes the container with its data. */
  remove(): Promise<void>;
}

/** A PostgreSQL server in a container (official image or its stand-in), for tests or a system under test. */
export async function startPostgresContainer(options: ContainerOptions = {}): Promise<StartedPostgres> {
  const image = imageFor('postgres', options.image);
  return startExplained('postgres', image, async () => {
    // Loaded here, not at the top: testcontainers takes a few hundred ms to import, and most importers start nothing.
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { Wait } = await import('testcontainers');
    const builder = new PostgreSqlContainer(image)
      .withUsername(USER)
      .withPassword(PASSWORD)
      .withDatabase('postgres')
      // Throwaway data: no fsync makes the many migrations of a test run cheaper. Kept data is not thrown away.
      .withCommand(options.keepAs ? ['postgres'] : ['postgres', '-c', 'fsync=off'])
      // The module's default waits for a health check, which podman never runs. The official image (and its
      // stand-in) log this line twice on a first start: once for the set-up server, then for the real one.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .withStartupTimeout(60_000);
    const alias = joinNetwork(builder, options, 'postgres');
    keepAs(builder, options);
    const container = await builder.start();
    return {
      container,
      url: `postgres://${USER}:${PASSWORD}@${container.getHost()}:${container.getPort()}/postgres`,
      networkUrl: alias && `postgres://${USER}:${PASSWORD}@${alias}:5432/postgres`,
      remove: async () => {
        await container.stop();
      },
    };
  });
}
