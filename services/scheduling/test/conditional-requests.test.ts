import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConditionalRequests, organizationHeaders, recordRequests } from '@app/service-testing';
import { createSchedule, startScheduling, type Running } from './support/harness.js';

let running: Running;
beforeAll(async () => {
  running = await startScheduling();
});
afterAll(() => running.stop());

describeConditionalRequests([
  {
    name: 'a schedule',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const headers = organizationHeaders();
      const { id } = await createSchedule(running, headers, { name: 'Consultations' });
      const calls = recordRequests(running.app, headers, `/api/v1/schedules/${id}`);
      return { ...calls, patch: (extra, n) => calls.patch(extra, { name: `Consultations ${n}`, minimum_notice: n }), state: calls.data };
    },
  },
]);

describe('PATCH /api/v1/schedules/{id} with nothing to change', () => {
  it('when it carries If-Match, then a stale one is still a 412 and the current one a 200 with the same ETag', async () => {
    const headers = organizationHeaders();
    const { id } = await createSchedule(running, headers, { name: 'Quiet' });
    const calls = recordRequests(running.app, headers, `/api/v1/schedules/${id}`);
    const first = String((await calls.get({})).headers.etag);
    const second = String((await calls.patch({}, { name: 'Quiet again' })).headers.etag);

    const stale = await calls.patch({ 'if-match': first }, {});
    const current = await calls.patch({ 'if-match': second }, {});
    expect([stale.status, JSON.parse(stale.body).code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect([current.status, current.headers.etag]).toEqual([200, second]);
  });
});
