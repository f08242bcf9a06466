import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { describeIdempotentCreates, listedCount, postWithKey } from '@app/service-testing';
import { calendarSyncSuite, newOrganization } from './support/harness.js';

describe('Idempotency-Key on the calendar-sync service', () => {
  const suite = calendarSyncSuite();
  const { fake } = suite;

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
          create: (key, body = 'same') => postWithKey(suite.running.app, '/api/v1/calendar-connections', org.headers, key, bodies[body]),
          count: () => listedCount(suite.running.app, '/api/v1/calendar-connections', org.headers),
        };
      },
    },
  ]);
});
