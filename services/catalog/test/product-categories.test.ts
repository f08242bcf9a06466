import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createChain } from './support/categories.js';
import { EventRecorder } from './support/events.js';
import { Client, startCatalog } from './support/harness.js';

let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const ids = (response: { json(): { data: { id: string }[] } }) => response.json().data.map((product) => product.id);

describe('products with category_ids', () => {
  it('when a product is created with categories, then GET and the list return them in the order given', async () => {
    const shop = new Client(catalog.running);
    const [a, b] = [await createCategory(shop), await createCategory(shop)];

    const product = await shop.product({ category_ids: [b?.id, a?.id, b?.id] });

    expect(product.category_ids).toEqual([b?.id, a?.id]);
    expect((await shop.get(`/api/v1/products/${product.id}`)).json().data.category_ids).toEqual([b?.id, a?.id]);
    expect((await shop.get('/api/v1/products')).json().data[0].category_ids).toEqual([b?.id, a?.id]);
    expect((await shop.product()).category_ids).toEqual([]);
  });

  it('when PATCH gives category_ids, then the list is replaced, and the ETag and updated_at change', async () => {
    const shop = new Client(catalog.running);
    const [a, b] = [await createCategory(shop), await createCategory(shop)];
    const product = await shop.product({ category_ids: [a?.id] });
    const before = await shop.get(`/api/v1/products/${product.id}`);

    const replaced = await shop.patch(`/api/v1/products/${product.id}`, { category_ids: [b?.id] });
    const cleared = await shop.patch(`/api/v1/products/${product.id}`, { category_ids: [] });

    expect(replaced.json().data.category_ids).toEqual([b?.id]);
    expect(replaced.headers.etag).not.toBe(before.headers.etag);
    expect(cleared.json().data.category_ids).toEqual([]);
    expect(cleared.headers.etag).not.toBe(replaced.headers.etag);
  });

  it('when an id is unknown, of another organization, or malformed, then 400 naming category_ids.<index> and nothing changes', async () => {
    const shop = new Client(catalog.running);
    const mine = await createCategory(shop);
    const foreign = await createCategory(new Client(catalog.running));
    const product = await shop.product({ category_ids: [mine.id] });

    for (const bad of [randomUUID(), foreign.id]) {
      const created = await shop.post('/api/v1/products', { name: 'Refused', price: 1, category_ids: [mine.id, bad] });
      const patched = await shop.patch(`/api/v1/products/${product.id}`, { category_ids: [mine.id, bad] });
      for (const response of [created, patched]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'category_ids.1' }] });
        expect(response.json().error).toContain(bad);
      }
    }
    const malformed = await shop.patch(`/api/v1/products/${product.id}`, { category_ids: ['nope'] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ details: [expect.objectContaining({ path: 'category_ids.0' })] });
    expect((await shop.get(`/api/v1/products/${product.id}`)).json().data.category_ids).toEqual([mine.id]);
    expect((await shop.get('/api/v1/products')).json().meta.total).toBe(1);
  });

  it('when a category with products is deleted, then they lose it, with a new ETag and a product.updated naming what they had', async () => {
    const shop = new Client(catalog.running);
    const [gone, kept] = [await createCategory(shop), await createCategory(shop)];
    const product = await shop.product({ category_ids: [gone?.id, kept?.id] });
    const before = await shop.get(`/api/v1/products/${product.id}`);
    const recorder = new EventRecorder(catalog.running, ['catalog.product.updated']);
    try {
      const deleted = await shop.delete(`/api/v1/categories/${gone?.id}`);

      expect(deleted.statusCode).toBe(200);
      const after = await shop.get(`/api/v1/products/${product.id}`);
      expect(after.json().data.category_ids).toEqual([kept?.id]);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const since = encodeURIComponent(before.json().data.updated_at);
      expect(ids(await shop.get(`/api/v1/products?updated_since=${since}`))).toContain(product.id);
      const [event] = await recorder.waitFor((each) => each.data.id === product.id);
      expect(event?.data).toMatchObject({ record: after.json().data, previous_attributes: { category_ids: [gone?.id, kept?.id] } });
    } finally {
      recorder.close();
    }
  });
});

describe('GET /api/v1/products?category_id=', () => {
  it('when filtered by a category, then its products and those of every category below it, and no others', async () => {
    const shop = new Client(catalog.running);
    const [root, child, grandchild] = await createChain(shop, 3);
    const sibling = await createCategory(shop);
    const inRoot = await shop.product({ category_ids: [root?.id] });
    const inGrandchild = await shop.product({ category_ids: [grandchild?.id] });
    const inChildAndSibling = await shop.product({ category_ids: [sibling.id, child?.id] });
    const inSibling = await shop.product({ category_ids: [sibling.id] });
    await shop.product();

    const under = (id: string | undefined) => shop.get(`/api/v1/products?category_id=${id}`);

    expect(ids(await under(root?.id))).toEqual([inChildAndSibling.id, inGrandchild.id, inRoot.id]);
    expect(ids(await under(child?.id))).toEqual([inChildAndSibling.id, inGrandchild.id]);
    expect(ids(await under(grandchild?.id))).toEqual([inGrandchild.id]);
    expect(ids(await under(sibling.id))).toEqual([inSibling.id, inChildAndSibling.id]);
    expect((await under(root?.id)).json().meta).toMatchObject({ total: 3 });
  });

  it('when a subtree is moved, then the filter follows the tree as it is now', async () => {
    const shop = new Client(catalog.running);
    const [a, b] = [await createCategory(shop), await createCategory(shop)];
    const leaf = await createCategory(shop, { parent_id: a?.id });
    const product = await shop.product({ category_ids: [leaf.id] });

    await shop.patch(`/api/v1/categories/${leaf.id}`, { parent_id: b?.id });

    expect(ids(await shop.get(`/api/v1/products?category_id=${a?.id}`))).toEqual([]);
    expect(ids(await shop.get(`/api/v1/products?category_id=${b?.id}`))).toEqual([product.id]);
  });

  it('when the category is unknown or another organization’s, then an empty list; a malformed one is 400 naming category_id', async () => {
    const shop = new Client(catalog.running);
    const other = new Client(catalog.running);
    const foreign = await createCategory(other);
    await other.product({ category_ids: [foreign.id] });
    await shop.product();

    const unknown = await shop.get(`/api/v1/products?category_id=${randomUUID()}`);
    const foreignList = await shop.get(`/api/v1/products?category_id=${foreign.id}`);
    const malformed = await shop.get('/api/v1/products?category_id=shoes');

    expect(unknown.json()).toMatchObject({ data: [], meta: { total: 0 } });
    expect(foreignList.json()).toMatchObject({ data: [], meta: { total: 0 } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'category_id' })] });
  });

  it('when a publishable key filters, then published products of the subtree only, with their category_ids', async () => {
    const secret = new Client(catalog.running);
    const publishable = new Client(catalog.running, secret.organizationId, 'publishable');
    const [root, child] = await createChain(secret, 2);
    const shown = await secret.product({ status: 'published', category_ids: [child?.id] });
    await secret.product({ status: 'draft', category_ids: [child?.id] });

    const response = await publishable.get(`/api/v1/products?category_id=${root?.id}`);

    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([expect.objectContaining({ id: shown.id, category_ids: [child?.id] })]);
    expect((await publishable.get(`/api/v1/products/${shown.id}`)).json().data.category_ids).toEqual([child?.id]);
  });

  it('when pages are walked by cursor under a category filter, then every product once, and the cursor is tied to the filter', async () => {
    const shop = new Client(catalog.running);
    const [category, other] = [await createCategory(shop), await createCategory(shop)];
    const expected: string[] = [];
    for (let n = 0; n < 5; n += 1) expected.unshift((await shop.product({ category_ids: [category?.id] })).id);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await shop.get(`/api/v1/products?category_id=${category?.id}&limit=2${suffix}`);
      seen.push(...ids(page));
      cursor = page.json().meta.next_cursor;
      if (cursor) {
        const elsewhere = await shop.get(`/api/v1/products?category_id=${other?.id}&limit=2&cursor=${encodeURIComponent(cursor)}`);
        expect(elsewhere.json()).toMatchObject({ code: 'CURSOR_INVALID' });
      }
    } while (cursor);
    expect(seen).toEqual(expected);
  });
});
