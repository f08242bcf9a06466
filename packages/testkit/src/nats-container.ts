import type { StartedTestContainer } from 'testcontainers';
import { joinNetwork, keepAs, type ContainerOptions } from './container-options.js';
import { imageFor } from './images.js';
import { waitForNats } from './nats-ready.js';
import { startExplained } from './start-errors.js';

export interface NatsContainerOptions extends ContainerOptions {
  /**
   * The host port for the client port 4222, fixed so the URL outlives `stop` and `start`. By default the engine
   * picks one at each start (no port is chosen and given back first): `url` then names the current one.
   */
  hostPort?: number;
}

export interface StartedNats {
  readonly container: StartedTestContainer;
  /** The client URL from this machine (without a fixed `hostPort`, read again at each `start`). */
  readonly url: string;
  /** The client URL from another container on the options' network (by alias); undefined without a network. */
  readonly networkUrl: string | undefined;
  /** Stops the server; the container stays, with its host port and JetStream store, for `start`. */
  stop(): Promise<void>;
  /** Starts the stopped server again and waits until it answers. */
  start(): Promise<void>;
  /** Stops and removes the container with its store. */
  remove(): Promise<void>;
}

/** A NATS server with JetStream in a container (official image or its stand-in) that can be stopped and started again. */
export async function startNatsContainer(options: NatsContainerOptions = {}): Promise<StartedNats> {
  const image = imageFor('nats', options.image);
  return startExplained('nats', image, async () => {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    const builder = new GenericContainer(image)
      .withCommand(['-js', '-sd', '/data'])
      // Podman 4 lists every port the image exposes (cluster 6222, monitoring 8222) as a binding, and testcontainers
      // waits until each binding has a host port: so they are published too, on any free port.
      .withExposedPorts(options.hostPort === undefined ? 4222 : { container: 4222, host: options.hostPort }, 6222, 8222)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .withStartupTimeout(60_000);
    const alias = joinNetwork(builder, options, 'nats');
    keepAs(builder, options);
    const container = await builder.start();
    // testcontainers' own stop removes the container; the engine's stop and start keep it, store and port included.
    const client = await getContainerRuntimeClient();
    const handle = client.container.getById(container.getId());
    const host = container.getHost();
    let hostPort = container.getMappedPort(4222);
    return {
      container,
      get url() {
        return `nats://${host}:${hostPort}`;
      },
      networkUrl: alias && `nats://${alias}:4222`,
      stop: () => client.container.stop(handle, { timeout: 10 }),
      start: async () => {
        await client.container.start(handle);
        const published = (await client.container.inspect(handle)).NetworkSettings.Ports['4222/tcp']?.[0]?.HostPort;
        if (published) hostPort = Number(published);
        await waitForNats(host, hostPort);
      },
      remove: async () => {
        await container.stop();
      },
    };
  });
}
