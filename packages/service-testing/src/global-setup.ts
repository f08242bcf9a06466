import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { generateCallerAssertionKeys } from './caller-assertion-keys.js';
import { acquireInfrastructure } from './run-infrastructure.js';
import './provided-context.js';

/**
 * One fresh database and one NATS prefix per project, removed afterwards, on the run's shared Postgres and NATS
 * (local or containers, see test-infra.ts): parallel projects and runs never meet.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { infrastructure, release } = await acquireInfrastructure();
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const database = `test_${suffix}`;
  const natsPrefix = `t_${suffix}`;
  try {
    await adminQuery(infrastructure.postgresAdminUrl, `CREATE DATABASE "${database}"`);
  } catch (error) {
    await release();
    throw error;
  }
  const databaseUrl = new URL(infrastructure.postgresAdminUrl);
  databaseUrl.pathname = `/${database}`;

  project.provide('databaseUrl', databaseUrl.toString());
  project.provide('natsUrl', infrastructure.natsUrl);
  project.provide('natsPrefix', natsPrefix);
  const keys = generateCallerAssertionKeys();
  project.provide('callerAssertionPrivateKey', keys.privateKey);
  project.provide('callerAssertionKeyId', keys.keyId);
  project.provide('callerAssertionPublicKeys', keys.publicKeys);

  return async () => {
    try {
      await adminQuery(infrastructure.postgresAdminUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await deleteStreams(infrastructure.natsUrl, natsPrefix);
    } finally {
      await release();
    }
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
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
