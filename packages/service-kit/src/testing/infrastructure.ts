// @app/testkit is a devDependency of the workspace root, where the test runs start, not of this package: npm's
// `--workspace` install of a service's production dependencies (Dockerfile) would otherwise bring testcontainers along.
import { isReachable, startNatsContainer, startPostgresContainer } from '@app/testkit';
import type { TestInfra } from './test-infra.js';

const LOCAL_POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** The Postgres and NATS servers of a test run. */
export interface Infrastructure {
  /** A superuser on the maintenance database, to create and drop each project's database. */
  postgresAdminUrl: string;
  natsUrl: string;
  stop: () => Promise<void>;
}

/** The servers `mode` asks for (see test-infra.ts), or an error naming what is missing and how to get it. */
export async function findInfrastructure(mode: TestInfra): Promise<Infrastructure> {
  if (mode === 'containers') return startContainers();
  const missing = await unreachableLocalServers();
  if (missing.length === 0) return { postgresAdminUrl: LOCAL_POSTGRES, natsUrl: LOCAL_NATS, stop: async () => undefined };
  const needed = `Integration tests need ${missing.join(' and ')}`;
  const startLocally =
    'Start them locally (PostgreSQL on 127.0.0.1:5432 with trust auth, `nats-server -js` on 127.0.0.1:4222) or publish those of compose: `npm run compose:secrets && docker compose -f docker-compose.yml -f ops/compose/publish-infra.yml up -d postgres nats`';
  if (mode === 'local') throw new Error(`${needed} (TEST_INFRA=local). ${startLocally}, or run with TEST_INFRA=containers.`);
  return startContainers().catch((error: unknown) => {
    throw new Error(`${needed}, and containers could not start them either. ${startLocally}.\n${(error as Error).message}`, {
      cause: error,
    });
  });
}

async function unreachableLocalServers(): Promise<string[]> {
  const postgres = new URL(LOCAL_POSTGRES);
  const nats = new URL(LOCAL_NATS.replace(/^nats:/, 'http:'));
  const [postgresUp, natsUp] = await Promise.all([
    isReachable(postgres.hostname, Number(postgres.port || 5432)),
    isReachable(nats.hostname, Number(nats.port || 4222)),
  ]);
  return [!postgresUp && `PostgreSQL (${LOCAL_POSTGRES})`, !natsUp && `NATS with JetStream (${LOCAL_NATS})`].filter(
    (server): server is string => typeof server === 'string',
  );
}

async function startContainers(): Promise<Infrastructure> {
  const [postgres, nats] = await Promise.allSettled([startPostgresContainer(), startNatsContainer()]);
  if (postgres.status === 'rejected' || nats.status === 'rejected') {
    // One may have started: without Ryuk (podman) nothing else would ever remove it.
    await Promise.all([postgres.status === 'fulfilled' && postgres.value.remove(), nats.status === 'fulfilled' && nats.value.remove()]);
    throw postgres.status === 'rejected' ? postgres.reason : (nats as PromiseRejectedResult).reason;
  }
  return {
    postgresAdminUrl: postgres.value.url,
    natsUrl: nats.value.url,
    stop: async () => {
      await Promise.all([postgres.value.remove(), nats.value.remove()]);
    },
  };
}
