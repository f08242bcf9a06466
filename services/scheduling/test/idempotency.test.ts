import { describe } from 'vitest';
import { describeIdempotentCreates, listedCount, organizationHeaders, postWithKey, startedForTests } from '@app/service-testing';
import { startScheduling } from './support/harness.js';

describe('Idempotency-Key on the scheduling service', () => {
  const running = startedForTests(startScheduling);

  describeIdempotentCreates([
    {
      name: 'POST /api/v1/schedules',
      async arrange() {
        const headers = organizationHeaders();
        const bodies = { same: { name: 'Consulting' }, other: { name: 'Coaching', slot_duration: 60 } };
        return {
          create: (key, body = 'same') => postWithKey(running.app, '/api/v1/schedules', headers, key, bodies[body]),
          count: () => listedCount(running.app, '/api/v1/schedules', headers),
        };
      },
    },
  ]);
});
