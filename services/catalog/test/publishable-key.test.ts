import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startCatalog } from './support/harness.js';

/**
 * A publishable key (a shop front in a browser) through the catalog, as API.md "Keys" lists its public operations:
 * published products only, their records and images; drafts and archived products are its 404. A secret key of the
 * same organization keeps seeing everything.
 */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

function keys(): { secret: Client; publishable: Client } {
  const secret = new Client(catalog.running);
  return { secret, publishable: new Client(catalog.running, secret.organizationId, 'publishable') };
}

const ids = (response: { json(): { data: { id: string }[] } }) => response.json().data.map((product) => product.id);

describe('products with a publishable key', () => {
  it('when a product is published, then it is shown whole, as the secret key sees it', async () => {
    const { secret, publishable } = keys();
    const media = await secret.uploadImage();
    const product = await secret.product({ status: 'published', description: 'Hand-thrown', stock: 3, featured_image_id: media.id });

    const response = await publishable.get(`/api/v1/products/${product.id}`);

    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual((await secret.get(`/api/v1/products/${product.id}`)).json().data);
    expect(response.json().data).toMatchObject({ status: 'published', featured_image: { id: media.id } });
  });

  it.each(['draft', 'archived'])(
    'when a product is %s, then it is a 404 like an unknown one, and the secret key reads it',
    async (status) => {
      const { secret, publishable } = keys();
      const product = await secret.product({ status });

      const hidden = await publishable.get(`/api/v1/products/${product.id}`);
      const unknown = await publishable.get(`/api/v1/products/${randomUUID()}`);

      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual(unknown.json());
      expect(hidden.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect((await secret.get(`/api/v1/products/${product.id}`)).statusCode).toBe(200);
    },
  );

  it('when products are listed page by page, then only published ones, with totals and cursors of that list', async () => {
    const { secret, publishable } = keys();
    const published: string[] = [];
    for (const status of ['published', 'draft', 'published', 'archived', 'published']) {
      const product = await secret.product({ status });
      if (status === 'published') published.unshift(product.id); // newest first
    }

    const first = await publishable.get('/api/v1/products?limit=2');
    const second = await publishable.get(`/api/v1/products?limit=2&cursor=${encodeURIComponent(first.json().meta.next_cursor)}`);

    expect(ids(first)).toEqual(published.slice(0, 2));
    expect(first.json().meta).toMatchObject({ total: 3, hasMore: true });
    expect(ids(second)).toEqual(published.slice(2));
    expect(second.json().meta).toMatchObject({ total: 3, hasMore: false, offset: 2, next_cursor: null });
    expect((await secret.get('/api/v1/products')).json().meta).toMatchObject({ total: 5 });
  });

  it.each([
    ['?status=draft', 0],
    ['?status=archived', 0],
    ['?status=published', 1],
    ['?search=mug', 1],
    ['?in_stock=false', 0],
  ])('when it lists with %s, then no draft or archived product matches', async (query, total) => {
    const { secret, publishable } = keys();
    await secret.product({ name: 'Draft mug', status: 'draft' });
    await secret.product({ name: 'Archived mug', status: 'archived' });
    const shown = await secret.product({ name: 'Published mug', status: 'published' });

    const response = await publishable.get(`/api/v1/products${query}`);

    expect(response.statusCode).toBe(200);
    expect(response.json().meta).toMatchObject({ total });
    expect(ids(response)).toEqual(total === 0 ? [] : [shown.id]);
  });

  it('when it brings a secret key’s cursor, then 400 CURSOR_INVALID, not the secret key’s list', async () => {
    const { secret, publishable } = keys();
    await secret.product({ status: 'draft' });
    await secret.product({ status: 'draft' });

    const cursor = (await secret.get('/api/v1/products?limit=1')).json().meta.next_cursor;
    const response = await publishable.get(`/api/v1/products?limit=1&cursor=${encodeURIComponent(cursor)}`);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'CURSOR_INVALID' });
  });

  it('when a published product’s images are listed, then they are shown; a draft’s are a 404', async () => {
    const { secret, publishable } = keys();
    const media = await secret.uploadImage();
    const shown = await secret.product({ status: 'published' });
    const draft = await secret.product({ status: 'draft' });
    for (const product of [shown, draft]) {
      expect((await secret.post(`/api/v1/products/${product.id}/images`, { media_file_id: media.id })).statusCode).toBe(201);
    }

    const images = await publishable.get(`/api/v1/products/${shown.id}/images`);
    const hidden = await publishable.get(`/api/v1/products/${draft.id}/images`);

    expect(images.statusCode).toBe(200);
    expect(images.json()).toEqual((await secret.get(`/api/v1/products/${shown.id}/images`)).json());
    expect(images.json().data).toHaveLength(1);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual((await publishable.get(`/api/v1/products/${randomUUID()}/images`)).json());
    expect((await secret.get(`/api/v1/products/${draft.id}/images`)).json().data).toHaveLength(1);
  });

  it.each([
    ['POST', '/api/v1/products'],
    ['PATCH', `/api/v1/products/${randomUUID()}`],
    ['DELETE', `/api/v1/products/${randomUUID()}`],
    ['POST', `/api/v1/products/${randomUUID()}/images`],
    ['GET', '/api/v1/media'],
    ['GET', `/api/v1/media/${randomUUID()}`],
  ] as const)('when it calls %s %s, then 403 FORBIDDEN', async (method, url) => {
    const { publishable } = keys();
    const response = await publishable.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'FORBIDDEN', error: 'Publishable keys cannot call this operation' });
  });
});
