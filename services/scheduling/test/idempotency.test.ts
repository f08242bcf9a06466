import { afterAll, beforeAll, describe } from 'vitest';
import { describeIdempotentCreates, listedCount, organizationHeaders, postWithKey } from '@app/service-testing';
import { startScheduling, type Running } from './support/harness.js';

describe('Idempotency-Key on the scheduling service', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startScheduling();
  });
  afterAll(() => running.stop());

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
