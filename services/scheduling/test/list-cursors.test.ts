import { afterAll, beforeAll, describe } from 'vitest';
import { describeListPaging, organizationHeaders, type ListReply, type PagedListCaller } from '@app/service-testing';
import { createSchedule, startScheduling, type Running } from './support/harness.js';

describe('GET /api/v1/schedules by cursor and updated_since', () => {
  let running: Running;
  // The real clock: updated_since is compared with the instants the test takes.
  beforeAll(async () => {
    running = await startScheduling(() => new Date());
  });
  afterAll(() => running.stop());

  function caller(): PagedListCaller {
    const headers = organizationHeaders();
    return {
      list: async (query) => {
        const response = await running.app.inject({ url: `/api/v1/schedules?${query}`, headers });
        return { status: response.statusCode, body: response.json<ListReply['body']>() };
      },
      create: async () => (await createSchedule(running, headers)).id,
      update: async (id) => {
        const response = await running.app.inject({
          method: 'PATCH',
          url: `/api/v1/schedules/${id}`,
          headers,
          payload: { name: 'Renamed' },
        });
        if (response.statusCode !== 200) throw new Error(`schedule not changed: ${response.body}`);
      },
    };
  }

  describeListPaging([{ name: 'GET /api/v1/schedules', arrange: async () => caller(), otherFilter: 'active=false' }]);
});
