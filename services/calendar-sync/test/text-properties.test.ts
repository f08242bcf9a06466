import { randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { createCalendarConnectionBodySchema } from '@app/contracts';
import { expectTextStoredAsValidated } from '@app/service-testing';
import { calendarSyncSuite, newOrganization } from './support/harness.js';

const suite = calendarSyncSuite();

describe('POST /api/v1/calendar-connections (any text)', () => {
  it.each([[['calendar_ids', 0]], [['calendar_ids', 1]]])(
    'when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500',
    async (path) => {
      const org = newOrganization();
      const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
        suite.running.app
          .inject({ method, url, headers: org.headers, ...(payload === undefined ? {} : { payload: payload as object }) })
          .then((response) => ({ status: response.statusCode, body: response.json() as Record<string, unknown> }));
      await expectTextStoredAsValidated(
        {
          schema: createCalendarConnectionBodySchema,
          body: () => ({
            provider: 'google',
            schedule_id: randomUUID(),
            calendar_ids: ['primary', 'team@example.com'],
            credentials: suite.fake.account().credentials(),
          }),
          path,
          create: (body) => inject('POST', '/api/v1/calendar-connections', body),
          read: (created) => inject('GET', `/api/v1/calendar-connections/${String((created.body.data as { id: string }).id)}`),
        },
        // Each connection starts a sync against the fake providers: fewer runs keep the file quick.
        { numRuns: 30 },
      );
    },
  );
});
