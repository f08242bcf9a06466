import type { GenericContainer, StartedNetwork } from 'testcontainers';

/** What every container of the kit accepts, so a caller can put several on one network (see `startSystem`). */
export interface ContainerOptions {
  /** The image to start; default: `POSTGRES_IMAGE` / `NATS_IMAGE`, else the official image. */
  image?: string;
  /** A network shared with other containers, which reach this one there by `networkAlias`. */
  network?: StartedNetwork;
  /** The host name on `network` (default: `postgres` or `nats`). */
  networkAlias?: string;
  /**
   * A fixed container name: a container of that name and configuration, running or stopped, is reused (started
   * again with its data), and `remove` is not for it (`npm start` keeps its containers across starts).
   */
  keepAs?: string;
}

/** Names `container` and asks for its reuse when the options keep it (`keepAs`). */
export function keepAs(container: GenericContainer, options: ContainerOptions): void {
  if (options.keepAs) container.withName(options.keepAs).withReuse();
}

/** Joins `container` to the options' network under its alias; returns the alias, or undefined without a network. */
export function joinNetwork(container: GenericContainer, options: ContainerOptions, defaultAlias: string): string | undefined {
  if (!options.network) return undefined;
  const alias = options.networkAlias ?? defaultAlias;
  container.withNetwork(options.network).withNetworkAliases(alias);
  return alias;
}
