import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { deleteStreams, dropDatabase, recreateDatabase } from '@app/dev-stack';
import { generateCallerAssertionRun } from './caller-assertion-keys.js';
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
  const keys = generateCallerAssertionRun();
  project.provide('callerAssertionRoot', keys.root);
  project.provide('callerAssertionKeyId', keys.keyId);
  // A service project's tests call that service: its name is what their assertions are for, unless they say otherwise.
  project.provide('callerAssertionAudience', project.name);

  return async () => {
    try {
      await dropDatabase(databaseUrl.toString());
      await deleteStreams(infrastructure.natsUrl, natsPrefix);
    } finally {
      await release();
    }
  };
}
