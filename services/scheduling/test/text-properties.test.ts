import { describe, it } from 'vitest';
import { createScheduleBodySchema } from '@app/contracts';
import { expectTextStoredAsValidated, organizationClient, startedForTests } from '@app/service-testing';
import { startScheduling } from './support/harness.js';

const running = startedForTests(startScheduling);

describe('POST /api/v1/schedules (any text)', () => {
  it('when the name holds any string, then 201 with it stored as validated, or 400 naming it; never 500', async () => {
    const client = organizationClient(running.app);
    await expectTextStoredAsValidated({
      schema: createScheduleBodySchema,
      body: () => ({ name: 'Consulting', timezone: 'UTC' }),
      path: ['name'],
      create: (body) => client.post('/api/v1/schedules', body),
      read: (created) => client.get(`/api/v1/schedules/${String((created.body.data as { id: string }).id)}`),
    });
  });
});
