import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { Client, startCatalog } from './support/harness.js';
import { EventRecorder } from './support/events.js';

const catalog = startedForTests(startCatalog);

const client = () => new Client(catalog.running);

describe('POST /api/v1/products', () => {
  it('when name and price are given, then 201 with a draft product and a slug from the name', async () => {
    const response = await client().post('/api/v1/products', { name: 'Crème Brûlée Set', price: 19.99, description: 'Six ramekins' });

    expect(response.statusCode).toBe(201);
    expect(response.json().data).toEqual({
      id: expect.any(String),
      name: 'Crème Brûlée Set',
      slug: 'creme-brulee-set',
      description: 'Six ramekins',
      price: 19.99,
      status: 'draft',
      stock: null,
      available: null,
      options: [],
      variants: [],
      featured_image_id: null,
      featured_image: null,
      category_ids: [],
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it.each([19.99, 0.3, 0.1, 0, 1234567.89, 999999999.99, 1000000000])(
    'when the price is %s, then it round-trips exactly and is stored as cents',
    async (price) => {
      const c = client();
      const created = await c.product({ price });
      expect(created.price).toBe(price);
      expect((await c.get(`/api/v1/products/${created.id}`)).json().data.price).toBe(price);
      const { rows } = await catalog.running.infra.pool.query('SELECT price_cents::text AS cents FROM catalog.products WHERE id = $1', [
        created.id,
      ]);
      expect(rows[0]?.cents).toBe(String(Math.round(price * 100)));
    },
  );

  it.each([
    [{ price: 10 }, 'name is required'],
    [{ name: '', price: 10 }, 'name must not be empty'],
    [{ name: '   ', price: 10 }, 'name must not be empty'],
    [{ name: 'x' }, 'price is required'],
    [{ name: 'x', price: -1 }, 'price must not be negative'],
    [{ name: 'x', price: 1.999 }, 'price must have at most two decimals'],
    [{ name: 'x', price: '10' }, 'price must be a number'],
    [{ name: 'x', price: 1e12 }, 'price must be at most 1000000000'],
    [{ name: 'x', price: 1, status: 'sold' }, 'status must be one of draft, published, archived'],
    [{ name: 'x', price: 1, slug: 'Not A Slug' }, 'slug must contain only lowercase letters, digits and single hyphens'],
    [{ name: 'x', price: 1, stock: -1 }, 'stock must not be negative'],
    [{ name: 'x', price: 1, stock: 1.5 }, 'stock must be an integer'],
    [{ name: 'x'.repeat(201), price: 1 }, 'name must be at most 200 characters'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const response = await client().post('/api/v1/products', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message, code: 'VALIDATION_ERROR' });
  });

  it('when an explicit slug is already used in the organization, then 409 SLUG_TAKEN', async () => {
    const c = client();
    await c.product({ slug: 'blue-mug' });
    const response = await c.post('/api/v1/products', { name: 'Other', price: 1, slug: 'blue-mug' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'A product with this slug already exists', code: 'SLUG_TAKEN' });
  });

  it('when another organization uses the slug, then it is free here', async () => {
    await client().product({ slug: 'shared-slug' });
    expect((await client().product({ slug: 'shared-slug' })).slug).toBe('shared-slug');
  });

  it('when generated slugs collide, then they get -2, -3…', async () => {
    const c = client();
    const slugs = [];
    for (let i = 0; i < 3; i += 1) slugs.push((await c.product({ name: 'Tea Pot' })).slug);
    expect(slugs).toEqual(['tea-pot', 'tea-pot-2', 'tea-pot-3']);
  });

  it('when 20 products with one name are created at once, then they get 20 distinct slugs', async () => {
    const c = client();
    const responses = await Promise.all(Array.from({ length: 20 }, () => c.post('/api/v1/products', { name: 'Same Name', price: 5 })));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const slugs = responses.map((r) => r.json().data.slug).sort();
    expect(slugs).toEqual(['same-name', ...Array.from({ length: 19 }, (_, i) => `same-name-${i + 2}`)].sort());
  });

  it('when 10 products ask for one explicit slug at once, then exactly one gets it and 9 get 409', async () => {
    const c = client();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => c.post('/api/v1/products', { name: 'X', price: 5, slug: 'contested' })),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(9);
  });

  it('when featured_image_id names a media file of the organization, then it is the featured image', async () => {
    const c = client();
    const media = await c.uploadImage();
    const product = await c.product({ featured_image_id: media.id });
    expect(product.featured_image_id).toBe(media.id);
    expect(product.featured_image).toEqual({ id: media.id, url: media.url, alt_text: '' });
  });

  it.each([
    ['an unknown media id', () => randomUUID()],
    ['a malformed media id', () => 'nope'],
    ['an empty media id', () => ''],
  ])('when featured_image_id is %s, then 404 Media file not found', async (_label, id) => {
    const response = await client().post('/api/v1/products', { name: 'x', price: 1, featured_image_id: id() });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Media file not found', code: 'MEDIA_NOT_FOUND' });
  });

  it('when featured_image_id is another organization’s media file, then 404 Media file not found', async () => {
    const media = await client().uploadImage();
    const response = await client().post('/api/v1/products', { name: 'x', price: 1, featured_image_id: media.id });
    expect(response.json()).toEqual({ error: 'Media file not found', code: 'MEDIA_NOT_FOUND' });
  });

  it('when a product is created, then catalog.product.created carries its state', async () => {
    const events = new EventRecorder(catalog.running, ['catalog.product.created']);
    const c = client();
    const product = await c.product({ name: 'Evented', price: 12.5, status: 'published', stock: 3 });
    const [event] = await events.waitFor((e) => e.organization_id === c.organizationId);
    events.close();
    expect(event?.data).toEqual({
      id: product.id,
      slug: 'evented',
      status: 'published',
      name: 'Evented',
      price: 12.5,
      stock: 3,
      featured_image_id: null,
      // The record as the API shows it: what the create answered, and GET still shows.
      record: product,
    });
    expect((await c.get(`/api/v1/products/${product.id}`)).json().data).toEqual(product);
  });
});
