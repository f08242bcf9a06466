import { describe } from 'vitest';
import { describeIdempotentCreates, listedCount, postWithKey } from '@app/service-testing';
import { calendarSyncSuite, connectionBody, newOrganization } from './support/harness.js';

describe('Idempotency-Key on the calendar-sync service', () => {
  const suite = calendarSyncSuite();
  const { fake } = suite;

  describeIdempotentCreates([
    {
      name: 'POST /api/v1/calendar-connections',
      async arrange() {
        const org = newOrganization();
        const bodies = { same: connectionBody(fake), other: connectionBody(fake) };
        return {
          create: (key, body = 'same') => postWithKey(suite.running.app, '/api/v1/calendar-connections', org.headers, key, bodies[body]),
          count: () => listedCount(suite.running.app, '/api/v1/calendar-connections', org.headers),
        };
      },
    },
  ]);
});
