import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { deleteStreams, dropDatabase, recreateDatabase } from '@app/dev-stack';
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
  const databaseUrl = new URL(infrastructure.postgresAdminUrl);
  databaseUrl.pathname = `/${database}`;
  try {
    await recreateDatabase(databaseUrl.toString());
  } catch (error) {
    await release();
    throw error;
  }

  project.provide('databaseUrl', databaseUrl.toString());
  project.provide('natsUrl', infrastructure.natsUrl);
  project.provide('natsPrefix', natsPrefix);
  const keys = generateCallerAssertionKeys();
  project.provide('callerAssertionPrivateKey', keys.privateKey);
  project.provide('callerAssertionKeyId', keys.keyId);
  project.provide('callerAssertionPublicKeys', keys.publicKeys);

  return async () => {
    try {
      await dropDatabase(databaseUrl.toString());
      await deleteStreams(infrastructure.natsUrl, natsPrefix);
    } finally {
      await release();
    }
  };
}
