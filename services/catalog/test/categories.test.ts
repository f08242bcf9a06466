import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCategories, createCategory, createChain } from './support/categories.js';
import { EventRecorder } from './support/events.js';
import { Client, startCatalog } from './support/harness.js';

let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

describe('POST /api/v1/categories', () => {
  it('when a root is created, then 201 with its record, which GET and the list show the same', async () => {
    const shop = new Client(catalog.running);

    const response = await shop.post('/api/v1/categories', { name: 'Crème Brûlée', description: 'Desserts' });

    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Crème Brûlée',
      slug: 'creme-brulee',
      parent_id: null,
      description: 'Desserts',
      created_at: expect.stringMatching(/Z$/),
      updated_at: created.created_at,
    });
    expect((await shop.get(`/api/v1/categories/${created.id}`)).json().data).toEqual(created);
    expect((await shop.get('/api/v1/categories')).json().data).toEqual([created]);
  });

  it('when a child is created, then it names its parent, and the list is flat, oldest first', async () => {
    const shop = new Client(catalog.running);
    const root = await createCategory(shop, { name: 'Kitchen' });

    const child = await createCategory(shop, { name: 'Mugs', parent_id: root.id });

    expect(child.parent_id).toBe(root.id);
    const list = await shop.get('/api/v1/categories');
    expect(list.json().data.map((category: { id: string }) => category.id)).toEqual([root.id, child.id]);
    expect(list.json().meta).toMatchObject({ total: 2, limit: 50, offset: 0, hasMore: false, next_cursor: null });
  });

  it('when names repeat, then generated slugs get -2, -3; an explicit taken slug is 409 SLUG_TAKEN', async () => {
    const shop = new Client(catalog.running);

    const slugs = [];
    for (let n = 0; n < 3; n += 1) slugs.push((await createCategory(shop, { name: 'Tea Cups' })).slug);
    const taken = await shop.post('/api/v1/categories', { name: 'Other', slug: 'tea-cups' });
    const elsewhere = await new Client(catalog.running).post('/api/v1/categories', { name: 'Other', slug: 'tea-cups' });

    expect(slugs).toEqual(['tea-cups', 'tea-cups-2', 'tea-cups-3']);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'SLUG_TAKEN' });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('when many same-named categories are created at once, then each gets its own slug', async () => {
    const shop = new Client(catalog.running);

    const responses = await Promise.all(Array.from({ length: 8 }, () => shop.post('/api/v1/categories', { name: 'Bowls' })));

    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(201));
    const slugs = responses.map((response) => response.json().data.slug).sort();
    expect(new Set(slugs).size).toBe(8);
    expect(slugs).toContain('bowls');
  });

  it('when the parent is unknown, of another organization, or malformed, then 400 naming parent_id', async () => {
    const shop = new Client(catalog.running);
    const foreign = await createCategory(new Client(catalog.running));

    for (const parentId of [randomUUID(), foreign.id, 'not-a-uuid']) {
      const response = await shop.post('/api/v1/categories', { name: 'Orphan', parent_id: parentId });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'parent_id' })] });
      expect(response.json().error).toMatch(/^parent_id /);
    }
    expect(await allCategories(shop)).toEqual([]);
  });

  it('when a category would be the sixth level, then 400 naming parent_id; the fifth is fine', async () => {
    const shop = new Client(catalog.running);
    const chain = await createChain(shop, 5);

    const sixth = await shop.post('/api/v1/categories', { name: 'Too deep', parent_id: chain[4]?.id });

    expect(chain[4]?.parent_id).toBe(chain[3]?.id);
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'parent_id', message: expect.stringContaining('5 levels') }],
    });
    expect(await allCategories(shop)).toHaveLength(5);
  });
});

describe('PATCH /api/v1/categories/{id}', () => {
  it('when renamed and described, then the record changes and GET shows it', async () => {
    const shop = new Client(catalog.running);
    const category = await createCategory(shop, { name: 'Mugs' });

    const response = await shop.patch(`/api/v1/categories/${category.id}`, { name: 'Cups', slug: 'cups', description: null });

    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id: category.id, name: 'Cups', slug: 'cups', description: null, parent_id: null });
    expect((await shop.get(`/api/v1/categories/${category.id}`)).json().data).toEqual(response.json().data);
  });

  it('when a slug of another category is set, then 409 SLUG_TAKEN and nothing changes', async () => {
    const shop = new Client(catalog.running);
    await createCategory(shop, { name: 'Plates' });
    const other = await createCategory(shop, { name: 'Bowls' });

    const response = await shop.patch(`/api/v1/categories/${other.id}`, { slug: 'plates' });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'SLUG_TAKEN' });
    expect((await shop.get(`/api/v1/categories/${other.id}`)).json().data.slug).toBe('bowls');
  });

  it('when moved under another category and back to the root, then parent_id follows', async () => {
    const shop = new Client(catalog.running);
    const [a, b] = [await createCategory(shop), await createCategory(shop)];

    const moved = await shop.patch(`/api/v1/categories/${b?.id}`, { parent_id: a?.id });
    const back = await shop.patch(`/api/v1/categories/${b?.id}`, { parent_id: null });

    expect(moved.json().data.parent_id).toBe(a?.id);
    expect(back.statusCode).toBe(200);
    expect(back.json().data.parent_id).toBeNull();
  });

  it('when moved under itself, then 409 CATEGORY_CYCLE', async () => {
    const shop = new Client(catalog.running);
    const category = await createCategory(shop);

    const response = await shop.patch(`/api/v1/categories/${category.id}`, { parent_id: category.id });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CATEGORY_CYCLE' });
  });

  it('when moved under one of its descendants, then 409 CATEGORY_CYCLE and the tree stays', async () => {
    const shop = new Client(catalog.running);
    const [root, , grandchild] = await createChain(shop, 3);

    for (const target of [grandchild]) {
      const response = await shop.patch(`/api/v1/categories/${root?.id}`, { parent_id: target?.id, name: 'Renamed' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'CATEGORY_CYCLE' });
    }
    expect((await shop.get(`/api/v1/categories/${root?.id}`)).json().data).toEqual(root);
  });

  it('when a move would put the subtree below the fifth level, then 400 naming parent_id; to the fifth is fine', async () => {
    const shop = new Client(catalog.running);
    const deep = await createChain(shop, 3); // levels 1..3
    const subtree = await createChain(shop, 3); // a root with two levels below it: height 2

    // Under level 3 its deepest node would be at level 6.
    const tooDeep = await shop.patch(`/api/v1/categories/${subtree[0]?.id}`, { parent_id: deep[2]?.id });
    // Under level 2 it reaches level 5.
    const fits = await shop.patch(`/api/v1/categories/${subtree[0]?.id}`, { parent_id: deep[1]?.id });

    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'parent_id' }] });
    expect(fits.statusCode).toBe(200);
    // The moved subtree's paths moved with it: below its deepest node (level 5) nothing more fits, and its new
    // ancestors now hold it (moving them under it is a cycle).
    const below = await shop.post('/api/v1/categories', { name: 'Sixth', parent_id: subtree[2]?.id });
    expect(below.statusCode).toBe(400);
    const cycle = await shop.patch(`/api/v1/categories/${deep[0]?.id}`, { parent_id: subtree[2]?.id });
    expect(cycle.json()).toMatchObject({ code: 'CATEGORY_CYCLE' });
  });

  it('when the new parent is unknown or of another organization, then 400 naming parent_id', async () => {
    const shop = new Client(catalog.running);
    const category = await createCategory(shop);
    const foreign = await createCategory(new Client(catalog.running));

    for (const parentId of [randomUUID(), foreign.id]) {
      const response = await shop.patch(`/api/v1/categories/${category.id}`, { parent_id: parentId });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'parent_id' }] });
    }
  });

  it('when the category is unknown, malformed or another organization’s, then 404', async () => {
    const shop = new Client(catalog.running);
    const foreign = await createCategory(new Client(catalog.running));

    for (const id of [randomUUID(), 'nope', foreign.id]) {
      expect((await shop.patch(`/api/v1/categories/${id}`, { name: 'X' })).statusCode).toBe(404);
      expect((await shop.get(`/api/v1/categories/${id}`)).statusCode).toBe(404);
      expect((await shop.delete(`/api/v1/categories/${id}`)).statusCode).toBe(404);
    }
  });
});

describe('DELETE /api/v1/categories/{id}', () => {
  it('when it has children, then 409 CATEGORY_NOT_EMPTY; once they are gone, it is deleted', async () => {
    const shop = new Client(catalog.running);
    const [parent, child] = await createChain(shop, 2);

    const refused = await shop.delete(`/api/v1/categories/${parent?.id}`);
    const childGone = await shop.delete(`/api/v1/categories/${child?.id}`);
    const parentGone = await shop.delete(`/api/v1/categories/${parent?.id}`);

    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CATEGORY_NOT_EMPTY' });
    expect(childGone.json()).toEqual({ data: { id: child?.id, deleted: true } });
    expect(parentGone.statusCode).toBe(200);
    expect((await shop.get(`/api/v1/categories/${parent?.id}`)).statusCode).toBe(404);
    expect(await allCategories(shop)).toEqual([]);
  });
});

describe('categories with a publishable key', () => {
  it('when the list is asked for, then it is served; one category, and any write, is refused', async () => {
    const secret = new Client(catalog.running);
    const publishable = new Client(catalog.running, secret.organizationId, 'publishable');
    const category = await createCategory(secret);

    const list = await publishable.get('/api/v1/categories');

    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([category]);
    expect((await publishable.get(`/api/v1/categories/${category.id}`)).statusCode).toBe(403);
    expect((await publishable.post('/api/v1/categories', { name: 'Shop front' })).statusCode).toBe(403);
    expect((await publishable.patch(`/api/v1/categories/${category.id}`, { name: 'X' })).statusCode).toBe(403);
    expect((await publishable.delete(`/api/v1/categories/${category.id}`)).statusCode).toBe(403);
  });
});

describe('category events', () => {
  it('when a category is created, moved and deleted, then created, updated (with previous_attributes) and deleted are published', async () => {
    const shop = new Client(catalog.running);
    const recorder = new EventRecorder(catalog.running, [
      'catalog.category.created',
      'catalog.category.updated',
      'catalog.category.deleted',
    ]);
    try {
      const parent = await createCategory(shop);
      const category = await createCategory(shop);
      const moved = (await shop.patch(`/api/v1/categories/${category.id}`, { parent_id: parent.id })).json().data;
      await shop.delete(`/api/v1/categories/${category.id}`);

      const mine = (event: { data: Record<string, unknown> }) => event.data.id === category.id;
      const [created, updated, deleted] = await recorder.waitFor(mine, 3);
      expect(created).toMatchObject({ type: 'catalog.category.created', organization_id: shop.organizationId, data: { record: category } });
      expect(updated).toMatchObject({
        type: 'catalog.category.updated',
        data: { parent_id: parent.id, record: moved, previous_attributes: { parent_id: null } },
      });
      expect(deleted).toMatchObject({ type: 'catalog.category.deleted', data: { id: category.id } });
    } finally {
      recorder.close();
    }
  });
});
