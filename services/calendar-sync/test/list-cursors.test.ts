import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { describeListPaging, eventually, type ListReply, type PagedListCaller } from '@app/service-testing';
import { calendarSyncSuite, createConnection, newOrganization } from './support/harness.js';

const suite = calendarSyncSuite();
const { fake } = suite;
const PATH = '/api/v1/calendar-connections';

describe('GET /api/v1/calendar-connections by cursor and updated_since', () => {
  function caller(): PagedListCaller {
    const org = newOrganization();
    const get = async (url: string) => {
      const response = await suite.running.app.inject({ url, headers: org.headers });
      return { status: response.statusCode, body: response.json<ListReply['body'] & { data?: unknown }>() };
    };
    return {
      list: (query) => get(`${PATH}?${query}`),
      // A new connection syncs at once: it is waited for, so that only the test's own change moves updated_at afterwards.
      create: async () => {
        const account = fake.account();
        account.google.set('primary', []);
        const body = { provider: 'google', schedule_id: randomUUID(), credentials: account.credentials() };
        const { id } = await createConnection(suite.running, org.headers, body);
        await eventually(async () => {
          const { body: read } = await get(`${PATH}/${id}`);
          return (read.data as { last_synced_at?: string | null } | undefined)?.last_synced_at ?? undefined;
        });
        return id;
      },
      update: async (id) => {
        const response = await suite.running.app.inject({ method: 'POST', url: `${PATH}/${id}/sync`, headers: org.headers });
        if (response.statusCode !== 202) throw new Error(`sync not requested: ${response.statusCode} ${response.body}`);
      },
    };
  }

  describeListPaging([{ name: `GET ${PATH}`, arrange: async () => caller(), otherFilter: 'provider=outlook' }]);
});
