import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  describeCursorWalkUnderInserts,
  describeListPaging,
  type Listed,
  type ListReply,
  type OrderedListCaller,
  type PagedListCaller,
} from '@app/service-testing';
import { Client, startCatalog } from './support/harness.js';

describe('GET /api/v1/products and /api/v1/media by cursor and updated_since', () => {
  let catalog: Awaited<ReturnType<typeof startCatalog>>;
  beforeAll(async () => {
    catalog = await startCatalog();
  });
  afterAll(() => catalog.stop());

  const listed = (client: Client, path: string) => async (query: string) => {
    const response = await client.get(`${path}?${query}`);
    return { status: response.statusCode, body: response.json<ListReply['body']>() };
  };
  const changed = async (response: Promise<{ statusCode: number; body: string }>) => {
    const { statusCode, body } = await response;
    if (statusCode !== 200) throw new Error(`not changed: ${statusCode} ${body}`);
  };

  function products(): OrderedListCaller {
    const client = new Client(catalog.running);
    return {
      list: listed(client, '/api/v1/products'),
      create: async () => (await client.product()).id,
      update: (id) => changed(client.patch(`/api/v1/products/${id}`, { price: 12.5 })),
      // The API makes each product the newest, so one placed elsewhere in the order is written with SQL: a millisecond
      // newer (before, in this newest-first list) or older (after) than the listed one.
      insertNear: async (record: Listed, side) => {
        const id = randomUUID();
        const at = new Date(Date.parse(String(record.created_at)) + (side === 'before' ? 1 : -1));
        await catalog.running.infra.pool.query(
          `INSERT INTO products (id, organization_id, name, slug, price_cents, status, created_at, updated_at)
           VALUES ($1::uuid, $2::uuid, 'Inserted', $3, 100, 'draft', $4::timestamptz, now())`,
          [id, client.organizationId, `inserted-${id}`, at],
        );
        return id;
      },
    };
  }

  function media(): PagedListCaller {
    const client = new Client(catalog.running);
    return {
      list: listed(client, '/api/v1/media'),
      create: async () => (await client.uploadImage()).id,
      // A media file's alt text is changed through a product image that shows it.
      update: async (id) => {
        const product = await client.product();
        const attached = await client.post(`/api/v1/products/${product.id}/images`, { media_file_id: id });
        if (attached.statusCode !== 201) throw new Error(`not attached: ${attached.statusCode} ${attached.body}`);
        const image = attached.json<{ data: { id: string } }>().data;
        await changed(client.patch(`/api/v1/products/${product.id}/images/${image.id}`, { alt_text: 'Now described' }));
      },
    };
  }

  const productList = { name: 'GET /api/v1/products', arrange: async () => products(), otherFilter: 'status=draft' };
  describeListPaging([
    productList,
    { name: 'GET /api/v1/media', arrange: async () => media(), otherFilter: 'updated_since=2000-01-01T00:00:00Z' },
  ]);
  describeCursorWalkUnderInserts([productList]);
});
