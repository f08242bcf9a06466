import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { Client, startCatalog } from './support/harness.js';
import { EventRecorder } from './support/events.js';

const catalog = startedForTests(startCatalog);

const client = () => new Client(catalog.running);

describe('GET /api/v1/products/{id}', () => {
  it.each([
    ['an unknown id', () => randomUUID()],
    ['a malformed id', () => 'abc'],
    ['an SQL-looking id', () => "1' OR '1'='1"],
  ])('when it is %s, then 404', async (_label, id) => {
    const response = await client().get(`/api/v1/products/${encodeURIComponent(id())}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Product not found', code: 'NOT_FOUND' });
  });

  it('when the id is written in capitals, then it is the same product', async () => {
    const c = client();
    const product = await c.product();
    expect((await c.get(`/api/v1/products/${product.id.toUpperCase()}`)).json().data).toEqual(product);
    expect((await c.delete(`/api/v1/products/${product.id.toUpperCase()}`)).json().data).toEqual({ id: product.id, deleted: true });
  });

  it('when another organization asks, then 404 and nothing changes for the owner', async () => {
    const owner = client();
    const product = await owner.product();
    const stranger = client();
    expect((await stranger.get(`/api/v1/products/${product.id}`)).statusCode).toBe(404);
    expect((await stranger.patch(`/api/v1/products/${product.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await stranger.delete(`/api/v1/products/${product.id}`)).statusCode).toBe(404);
    expect((await owner.get(`/api/v1/products/${product.id}`)).json().data.name).toBe(product.name);
  });
});

describe('PATCH /api/v1/products/{id}', () => {
  it('when fields are changed, then they are saved, the slug stays, and updated_at moves', async () => {
    const c = client();
    const product = await c.product({ name: 'Old Name', price: 3, stock: 2, description: 'd' });

    const response = await c.patch(`/api/v1/products/${product.id}`, {
      name: 'New Name',
      price: 4.05,
      status: 'published',
      stock: null,
      description: null,
    });

    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ name: 'New Name', slug: 'old-name', price: 4.05, status: 'published', stock: null, description: null });
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(product.created_at as string));
  });

  it('when the body is empty, then the product is returned unchanged', async () => {
    const c = client();
    const product = await c.product();
    const response = await c.patch(`/api/v1/products/${product.id}`, {});
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual(product);
  });

  it('when the slug is changed to one in use, then 409 SLUG_TAKEN', async () => {
    const c = client();
    await c.product({ slug: 'taken' });
    const product = await c.product();
    const response = await c.patch(`/api/v1/products/${product.id}`, { slug: 'taken' });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('SLUG_TAKEN');
  });

  it('when featured_image_id is set and cleared, then the featured image follows', async () => {
    const c = client();
    const media = await c.uploadImage();
    const product = await c.product();
    expect((await c.patch(`/api/v1/products/${product.id}`, { featured_image_id: media.id })).json().data.featured_image.id).toBe(media.id);
    const cleared = (await c.patch(`/api/v1/products/${product.id}`, { featured_image_id: null })).json().data;
    expect(cleared).toMatchObject({ featured_image_id: null, featured_image: null });
  });

  it('when featured_image_id is unknown, then 404 MEDIA_NOT_FOUND', async () => {
    const c = client();
    const product = await c.product();
    const response = await c.patch(`/api/v1/products/${product.id}`, { featured_image_id: randomUUID() });
    expect(response.json()).toEqual({ error: 'Media file not found', code: 'MEDIA_NOT_FOUND' });
  });

  it.each([
    [{ price: -5 }, 'price must not be negative'],
    [{ name: null }, 'name must be a string'],
    [{ status: 'gone' }, 'status must be one of draft, published, archived'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const c = client();
    const product = await c.product();
    const response = await c.patch(`/api/v1/products/${product.id}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
  });

  it('when a product is updated, then catalog.product.updated is published', async () => {
    const events = new EventRecorder(catalog.running, ['catalog.product.updated']);
    const c = client();
    const product = await c.product();
    const updated = (await c.patch(`/api/v1/products/${product.id}`, { status: 'published' })).json().data;
    const [event] = await events.waitFor((e) => e.organization_id === c.organizationId);
    events.close();
    expect(event?.data).toMatchObject({ id: product.id, status: 'published', record: updated });
    expect(updated).toMatchObject({ status: 'published' });
  });
});

describe('DELETE /api/v1/products/{id}', () => {
  it('when the product exists, then it is deleted, its images detached, its media kept, and catalog.product.deleted published', async () => {
    const events = new EventRecorder(catalog.running, ['catalog.product.deleted']);
    const c = client();
    const media = await c.uploadImage();
    const product = await c.product();
    await c.post(`/api/v1/products/${product.id}/images`, { media_file_id: media.id, is_featured: true });

    const response = await c.delete(`/api/v1/products/${product.id}`);

    expect(response.json()).toEqual({ data: { id: product.id, deleted: true } });
    expect((await c.get(`/api/v1/products/${product.id}`)).statusCode).toBe(404);
    expect((await c.get(`/api/v1/media/${media.id}`)).statusCode).toBe(200);
    expect((await c.delete(`/api/v1/media/${media.id}`)).statusCode).toBe(200);
    const [event] = await events.waitFor((e) => e.organization_id === c.organizationId);
    events.close();
    expect(event?.data).toEqual({ id: product.id });
  });

  it('when it is deleted twice, then the second is 404', async () => {
    const c = client();
    const product = await c.product();
    await c.delete(`/api/v1/products/${product.id}`);
    expect((await c.delete(`/api/v1/products/${product.id}`)).statusCode).toBe(404);
  });
});
