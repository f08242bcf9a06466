import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeIdempotentCreates, listedCount, postWithKey, type RunningService } from '@app/service-kit/testing';
import type { Config } from '../src/config.js';
import { FakeProviders } from './support/fake-providers.js';
import { FileDatabase, newOrganization, startCalendarSync } from './support/harness.js';

describe('Idempotency-Key on the calendar-sync service', () => {
  const fake = new FakeProviders();
  const database = FileDatabase.create();
  let running: RunningService<Config>;
  beforeAll(async () => {
    await fake.start();
    running = await startCalendarSync(fake, database);
  });
  afterAll(async () => {
    await running.stop();
    await fake.stop();
    await database.drop();
  });

  /** A connection body of an account of its own (the account's primary calendar is empty). */
  function connectionBody(scheduleId: string) {
    const account = fake.account();
    account.google.set('primary', []);
    return { provider: 'google', schedule_id: scheduleId, credentials: account.credentials() };
  }

  describeIdempotentCreates([
    {
      name: 'POST /api/v1/calendar-connections',
      async arrange() {
        const org = newOrganization();
        const bodies = { same: connectionBody(randomUUID()), other: connectionBody(randomUUID()) };
        return {
          create: (key, body = 'same') => postWithKey(running.app, '/api/v1/calendar-connections', org.headers, key, bodies[body]),
          count: () => listedCount(running.app, '/api/v1/calendar-connections', org.headers),
        };
      },
    },
  ]);
});
