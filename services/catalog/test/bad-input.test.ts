import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { Client, startCatalog } from './support/harness.js';
import { anonymousHeaders } from '@app/service-testing';

let catalog: Awaited<ReturnType<typeof startCatalog>>;
let client: Client;
let productId: string;
let imageId: string;

beforeAll(async () => {
  catalog = await startCatalog();
  client = new Client(catalog.running);
  productId = (await client.product()).id;
  const media = await client.uploadImage();
  imageId = (await client.post(`/api/v1/products/${productId}/images`, { media_file_id: media.id })).json().data.id;
});
afterAll(() => catalog.stop());

const BODIES: [string, unknown, string?][] = [
  ['null', 'null', 'application/json'],
  ['an array', '[1,2]', 'application/json'],
  ['a string', '"text"', 'application/json'],
  ['a number', '42', 'application/json'],
  ['malformed JSON', '{"name": ', 'application/json'],
  ['an empty JSON body', '', 'application/json'],
  ['form-urlencoded', 'name=x&price=1', 'application/x-www-form-urlencoded'],
  ['plain text', 'hello', 'text/plain'],
  [
    'deeply wrong types',
    JSON.stringify({
      name: { a: 1 },
      price: [1],
      slug: 5,
      stock: 'many',
      status: null,
      featured_image_id: 7,
      order_index: 'x',
      is_featured: 'no',
      alt_text: 5,
    }),
    'application/json',
  ],
  ['huge numbers', JSON.stringify({ name: 'x', price: 1e308, stock: 1e20, order_index: 1e20, media_file_id: 'x' }), 'application/json'],
  ['NaN-like strings', JSON.stringify({ name: 'x', price: 'NaN', order_index: 'Infinity' }), 'application/json'],
  [
    'NUL characters',
    JSON.stringify({ name: 'a\u0000b', price: 1, description: '\u0000', alt_text: '\u0000', order_index: 0, media_file_id: '\u0000' }),
    'application/json',
  ],
  ['a prototype key', '{"__proto__": {"admin": true}, "name": "x", "price": 1}', 'application/json'],
];

describe('bad input on every write', () => {
  const targets = (): [string, string][] => [
    ['POST', '/api/v1/products'],
    ['PATCH', `/api/v1/products/${productId}`],
    ['POST', `/api/v1/products/${productId}/images`],
    ['PATCH', `/api/v1/products/${productId}/images/${imageId}`],
    ['POST', '/api/v1/media'],
  ];

  it.each(BODIES)('when the body is %s, then every write answers 4xx, never 5xx', async (_label, payload, contentType) => {
    for (const [method, url] of targets()) {
      const response = await catalog.running.app.inject({
        method: method as InjectOptions['method'],
        url,
        headers: { ...client.headers, ...(contentType ? { 'content-type': contentType } : {}) },
        payload: payload as string,
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(500);
      expect(response.json()).toHaveProperty('code');
    }
  });
});

describe('unknown fields', () => {
  // Strict like every other service's bodies: a typo (`stok`) is refused by name, never silently dropped.
  it.each([
    ['POST', '/api/v1/products', { name: 'Typo', price: 1, stok: 5 }, 'stok'],
    ['PATCH', () => `/api/v1/products/${productId}`, { stok: 5 }, 'stok'],
    ['POST', () => `/api/v1/products/${productId}/images`, { media_file_id: 'x', featured: true }, 'featured'],
    ['PATCH', () => `/api/v1/products/${productId}/images/${imageId}`, { order: 1 }, 'order'],
  ])('when %s %s has an unknown field, then 400 naming it and nothing changes', async (method, url, payload, field) => {
    const before = (await client.get(`/api/v1/products/${productId}`)).json();
    const response = await client.request(method as InjectOptions['method'], typeof url === 'function' ? url() : url, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: `body has unknown field ${field}` });
    expect((await client.get(`/api/v1/products/${productId}`)).json()).toEqual(before);
  });

  it('when the list has an unknown query parameter, then 400 naming it as the other services do', async () => {
    const response = await client.get('/api/v1/products?sort=name');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'query has unknown field sort' });
  });
});

describe('bad ids and paths', () => {
  it.each([
    ['GET', '/api/v1/products/%00'],
    ['GET', '/api/v1/products/00000000-0000-0000-0000-000000000000'],
    ['GET', `/api/v1/products/${'a'.repeat(5000)}`],
    ['DELETE', '/api/v1/products/null'],
    ['GET', '/api/v1/products/undefined/images'],
    ['DELETE', '/api/v1/products/x/images/y'],
    ['GET', '/api/v1/media/%27%3B%20DROP%20TABLE%20media_files%3B--'],
    ['DELETE', '/api/v1/media/123'],
    ['GET', '/media/x/y'],
    ['GET', `/media/${'A'.repeat(32)}/${'b'.repeat(3000)}.png`],
    ['GET', '/media/%E0%A4%A/x.png'],
    ['GET', '/api/v1/products?offset=99999999999999999999'],
    ['GET', '/api/v1/products?limit=1e2'],
    ['GET', '/api/v1/media?offset=-0'],
    ['GET', '/api/v1/products?min_price=99999999999999999999'],
    ['GET', '/api/v1/products?search=%00'],
  ])('when %s %s, then 4xx', async (method, url) => {
    const response = await catalog.running.app.inject({ method: method as InjectOptions['method'], url, headers: client.headers });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });

  it.each([
    ['/api/v1/products?offset=2147483647', 200],
    ['/api/v1/products?offset=2147483648', 400],
    ['/api/v1/products?unknown=1', 400],
    ['/api/v1/products?search=%27%3B--%20%5C', 200],
  ])('when GET %s, then %i', async (url, status) => {
    const response = await catalog.running.app.inject({ method: 'GET', url, headers: client.headers });
    expect(response.statusCode, response.body).toBe(status);
  });

  it('when HEAD is sent for a media URL, then its headers come without a body', async () => {
    const media = await client.uploadImage();
    const response = await catalog.running.app.inject({ method: 'HEAD', url: new URL(media.url).pathname, headers: anonymousHeaders() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.body).toBe('');
  });
});
