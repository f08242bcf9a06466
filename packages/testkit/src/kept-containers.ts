import { imageFor } from './images.js';
import { startNatsContainer } from './nats-container.js';
import { startPostgresContainer } from './postgres-container.js';

/** The names `npm start` keeps its containers under (START_INFRA, @app/dev-stack). */
export const KEPT_CONTAINER_NAMES = { postgres: 'scheduling-shop-postgres', nats: 'scheduling-shop-nats' } as const;

/** A container `npm start` uses: where it is and what to print about it. Kept: nothing stops it with the stack. */
export interface KeptContainer {
  url: string;
  description: string;
}

/** Whether a Docker API answers (Docker, or podman's service: scripts/container-engine.sh). */
export async function containerEngineAnswers(): Promise<boolean> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  return getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
}

/**
 * NATS with JetStream in the container `scheduling-shop-nats`, started on first use and reused by every later start
 * (testcontainers' reuse: the same name and configuration), running or stopped, with its store.
 */
export async function keptNatsContainer(name: string = KEPT_CONTAINER_NAMES.nats): Promise<KeptContainer> {
  const nats = await startNatsContainer({ keepAs: name });
  return { url: nats.url, description: kept(name, imageFor('nats'), nats.url) };
}

/** PostgreSQL in the container `scheduling-shop-postgres`, kept and reused the same way (START_INFRA=containers). */
export async function keptPostgresContainer(name: string = KEPT_CONTAINER_NAMES.postgres): Promise<KeptContainer> {
  const postgres = await startPostgresContainer({ keepAs: name });
  return { url: postgres.url, description: kept(name, imageFor('postgres'), postgres.url) };
}

function kept(name: string, image: string, url: string): string {
  const { host, port } = new URL(url.replace(/^nats:/, 'http:'));
  return `container ${name} (${image}) on ${host}:${port}, kept for the next start`;
}
