import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { isReachable } from './reachability.js';
import './provided-context.js';

const LOCAL_POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

interface Services {
  postgresAdminUrl: string;
  natsUrl: string;
  stop: () => Promise<void>;
}

/** Local Postgres and NATS when reachable (as on CI), else containers when Docker is there, else a loud failure. */
async function findServices(): Promise<Services> {
  const pgUrl = new URL(LOCAL_POSTGRES);
  const natsUrl = new URL(LOCAL_NATS.replace(/^nats:/, 'http:'));
  const [pgUp, natsUp] = await Promise.all([
    isReachable(pgUrl.hostname, Number(pgUrl.port || 5432)),
    isReachable(natsUrl.hostname, Number(natsUrl.port || 4222)),
  ]);
  if (pgUp && natsUp) return { postgresAdminUrl: LOCAL_POSTGRES, natsUrl: LOCAL_NATS, stop: async () => undefined };
  return startContainers(pgUp, natsUp);
}

async function startContainers(pgUp: boolean, natsUp: boolean): Promise<Services> {
  const missing = [!pgUp && `PostgreSQL (${LOCAL_POSTGRES})`, !natsUp && `NATS with JetStream (${LOCAL_NATS})`]
    .filter(Boolean)
    .join(' and ');
  try {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { GenericContainer, Wait } = await import('testcontainers');
    const postgres = await new PostgreSqlContainer('postgres:16-alpine').start();
    const nats = await new GenericContainer('nats:2.10-alpine')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start();
    const adminUrl = new URL(postgres.getConnectionUri());
    adminUrl.pathname = '/postgres';
    return {
      postgresAdminUrl: adminUrl.toString(),
      natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
      stop: async () => {
        await Promise.all([postgres.stop(), nats.stop()]);
      },
    };
  } catch (error) {
    throw new Error(
      `Integration tests need ${missing}, and no Docker engine could start them (${(error as Error).message.split('\n')[0]}).\n` +
        'Start them locally (PostgreSQL on 127.0.0.1:5432 with trust auth, `nats-server -js` on 127.0.0.1:4222) or run `docker compose up -d postgres nats`.',
      { cause: error },
    );
  }
}

/** One fresh database and one NATS prefix per test run, removed afterwards: parallel runs never meet. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await findServices();
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const database = `test_${suffix}`;
  const admin = new pg.Client({ connectionString: services.postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const databaseUrl = new URL(services.postgresAdminUrl);
  databaseUrl.pathname = `/${database}`;
  const natsPrefix = `t_${suffix}`;

  project.provide('databaseUrl', databaseUrl.toString());
  project.provide('natsUrl', services.natsUrl);
  project.provide('natsPrefix', natsPrefix);

  return async () => {
    const cleanup = new pg.Client({ connectionString: services.postgresAdminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await cleanup.end();
    await deleteStreams(services.natsUrl, natsPrefix);
    await services.stop();
  };
}

async function deleteStreams(url: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.startsWith(`${prefix}_`)) await jsm.streams.delete(stream.config.name);
    }
  } finally {
    await nc.close();
  }
}
