import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  describeConditionalRequests,
  describeCursorWalkUnderInserts,
  describeListPaging,
  recordRequests,
  type Listed,
  type ListReply,
  type OrderedListCaller,
} from '@app/service-testing';
import { createCategory } from './support/categories.js';
import { Client, startCatalog } from './support/harness.js';

/** Categories keep the conventions every resource keeps: ETags and If-Match, cursors and updated_since. */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

describeConditionalRequests([
  {
    name: 'a category',
    has: { get: true, patch: true, remove: true },
    async arrange() {
      const client = new Client(catalog.running);
      const parent = await createCategory(client);
      const calls = recordRequests(catalog.running.app, client.headers, `/api/v1/categories/${(await createCategory(client)).id}`);
      // Every other change moves it (a tree write under the organization's lock) or renames it.
      const patch = (headers: Record<string, string>, n: number) =>
        calls.patch(headers, n % 2 === 0 ? { name: `Mugs ${n}`, parent_id: parent.id } : { name: `Mugs ${n}`, parent_id: null });
      return { ...calls, patch, state: calls.data };
    },
  },
]);

describe('GET /api/v1/categories by cursor and updated_since', () => {
  function categories(): OrderedListCaller {
    const client = new Client(catalog.running);
    return {
      list: async (query) => {
        const response = await client.get(`/api/v1/categories?${query}`);
        return { status: response.statusCode, body: response.json<ListReply['body']>() };
      },
      create: async () => (await createCategory(client)).id,
      update: async (id) => {
        const response = await client.patch(`/api/v1/categories/${id}`, { description: 'Changed' });
        if (response.statusCode !== 200) throw new Error(`not changed: ${response.statusCode} ${response.body}`);
      },
      // Oldest first: one placed elsewhere in the order is written with SQL a millisecond older or newer.
      insertNear: async (record: Listed, side) => {
        const id = randomUUID();
        const at = new Date(Date.parse(String(record.created_at)) + (side === 'before' ? -1 : 1));
        await catalog.running.infra.pool.query(
          `INSERT INTO categories (id, organization_id, name, slug, created_at) VALUES ($1::uuid, $2::uuid, 'Inserted', $3, $4::timestamptz)`,
          [id, client.organizationId, `inserted-${id}`, at],
        );
        await catalog.running.infra.pool.query(`INSERT INTO category_paths VALUES ($1::uuid, $1::uuid, 0)`, [id]);
        return id;
      },
    };
  }

  const list = { name: 'GET /api/v1/categories', arrange: async () => categories(), otherFilter: 'updated_since=2000-01-01T00:00:00Z' };
  describeListPaging([list]);
  describeCursorWalkUnderInserts([list]);
});
