import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startCatalog } from './support/harness.js';

let catalog: Awaited<ReturnType<typeof startCatalog>>;
let shop: Client;
const ids: Record<string, string> = {};

/** One organization's assortment, created once; every case below only reads it. */
const PRODUCTS = [
  { name: 'Red Mug', price: 9.99, status: 'published', stock: 5 },
  { name: 'Blue MUG', price: 12.5, status: 'published', stock: 0 },
  { name: 'green mug xl', price: 20, status: 'draft', stock: null },
  { name: 'Teapot', price: 35, status: 'published', stock: null },
  { name: '100% Cotton Towel', price: 15, status: 'archived', stock: 10 },
  { name: 'Under_score Cup', price: 0.3, status: 'published', stock: 1 },
  { name: 'Underscore Cup', price: 0.1, status: 'published', stock: 1 },
];

beforeAll(async () => {
  catalog = await startCatalog();
  shop = new Client(catalog.running);
  for (const product of PRODUCTS) ids[product.name] = (await shop.product(product)).id;
  // Another organization's products must never show up.
  await new Client(catalog.running).product({ name: 'Red Mug', price: 9.99, status: 'published' });
});
afterAll(() => catalog.stop());

async function names(query: string): Promise<string[]> {
  const response = await shop.get(`/api/v1/products${query}`);
  expect(response.statusCode).toBe(200);
  return response
    .json()
    .data.map((p: { name: string }) => p.name)
    .sort();
}

describe('GET /api/v1/products', () => {
  it('when no filter is given, then all of the organization’s products are listed, newest first, with meta', async () => {
    const response = await shop.get('/api/v1/products');
    const body = response.json();
    expect(body.meta).toEqual({ total: 7, limit: 50, offset: 0, hasMore: false, next_cursor: null });
    expect(body.data.map((p: { name: string }) => p.name)).toEqual(PRODUCTS.map((p) => p.name).reverse());
    expect(body.data[0]).toMatchObject({ featured_image: null, stock: 1, slug: 'underscore-cup-2' });
  });

  it.each([
    ['?search=mug', ['Blue MUG', 'Red Mug', 'green mug xl']],
    ['?search=MUG', ['Blue MUG', 'Red Mug', 'green mug xl']],
    ['?search=%25', ['100% Cotton Towel']],
    ['?search=_', ['Under_score Cup']],
    ['?search=unde_s', []],
    ['?search=100%25%20c', ['100% Cotton Towel']],
    ['?search=nothing-like-this', []],
    ['?search=', PRODUCTS.map((p) => p.name)],
    ['?status=published', ['Blue MUG', 'Red Mug', 'Teapot', 'Under_score Cup', 'Underscore Cup']],
    ['?status=draft', ['green mug xl']],
    ['?status=archived', ['100% Cotton Towel']],
    ['?min_price=12.5', ['100% Cotton Towel', 'Blue MUG', 'Teapot', 'green mug xl']],
    ['?max_price=0.3', ['Under_score Cup', 'Underscore Cup']],
    ['?min_price=0.1&max_price=0.1', ['Underscore Cup']],
    ['?min_price=10&max_price=20', ['100% Cotton Towel', 'Blue MUG', 'green mug xl']],
    ['?in_stock=true', ['Red Mug', 'Teapot', 'Under_score Cup', 'Underscore Cup']],
    ['?in_stock=false', ['100% Cotton Towel', 'Blue MUG', 'green mug xl']],
    ['?search=mug&in_stock=true&max_price=10', ['Red Mug']],
    ['?search=cup&min_price=0.2', ['Under_score Cup']],
  ])('when filtered by %s, then exactly the matching products are listed', async (query, expected) => {
    expect(await names(query)).toEqual([...expected].sort());
  });

  it('when paging, then limit, offset and meta describe the window', async () => {
    const first = (await shop.get('/api/v1/products?limit=3')).json();
    const last = (await shop.get('/api/v1/products?limit=3&offset=6')).json();
    const beyond = (await shop.get('/api/v1/products?limit=3&offset=100')).json();
    expect(first.meta).toEqual({ total: 7, limit: 3, offset: 0, hasMore: true, next_cursor: expect.any(String) });
    // Exactly the page asked for: the statement's LIMIT is the next usual page size (10), the rest is dropped.
    expect(first.data).toHaveLength(3);
    expect(last.meta).toEqual({ total: 7, limit: 3, offset: 6, hasMore: false, next_cursor: null });
    expect(last.data).toHaveLength(1);
    expect(beyond).toEqual({ data: [], meta: { total: 7, limit: 3, offset: 100, hasMore: false, next_cursor: null } });
  });

  it('when paging through a filter, then total counts the filter', async () => {
    const body = (await shop.get('/api/v1/products?search=mug&limit=1&offset=1')).json();
    expect(body.meta).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true, next_cursor: expect.any(String) });
    expect(body.data).toHaveLength(1);
  });

  it.each([
    ['?limit=0'],
    ['?limit=201'],
    ['?limit=abc'],
    ['?offset=-1'],
    ['?min_price=-1'],
    ['?min_price=abc'],
    ['?max_price=1.234'],
    ['?min_price=10&max_price=5'],
    ['?in_stock=yes'],
    ['?status=sold'],
    ['?status=draft&status=published'],
    [`?search=${'x'.repeat(201)}`],
  ])('when the query is %s, then 400', async (query) => {
    const response = await shop.get(`/api/v1/products${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('when the search has accented capitals, then it matches as ILIKE does, and a rename is searched by its new name', async () => {
    const cafe = new Client(catalog.running);
    const dish = await cafe.product({ name: 'Crème BRÛLÉE Dish', price: 7 });
    const found = async (search: string) =>
      (await cafe.get(`/api/v1/products?search=${encodeURIComponent(search)}`)).json().data.map((p: { id: string }) => p.id);
    expect(await found('brûlée')).toEqual([dish.id]);
    expect(await found('CRÈME b')).toEqual([dish.id]);
    expect(await found('creme')).toEqual([]); // case-insensitive, not accent-insensitive
    expect((await cafe.patch(`/api/v1/products/${dish.id}`, { name: 'Ramekin' })).statusCode).toBe(200);
    expect(await found('RAMEK')).toEqual([dish.id]);
    expect(await found('brûlée')).toEqual([]);
  });

  it('when a searched page lies past the end, then it is empty and total still counts the matches', async () => {
    expect((await shop.get('/api/v1/products?search=mug&limit=2&offset=10')).json()).toEqual({
      data: [],
      meta: { total: 3, limit: 2, offset: 10, hasMore: false, next_cursor: null },
    });
  });

  it('when a product is listed, then its record is the one GET returns, field for field', async () => {
    // The list is read by its own statement (instants formatted by Postgres); the two must never drift apart.
    const studio = new Client(catalog.running);
    const image = await studio.uploadImage('front.png');
    const made = await studio.product({ name: 'Glazed Bowl', price: 19.99, stock: 3, status: 'published', featured_image_id: image.id });
    await studio.patch(`/api/v1/products/${made.id}`, { description: 'Stoneware' });
    const single = (await studio.get(`/api/v1/products/${made.id}`)).json().data;
    for (const query of ['', '?search=glazed', '?min_price=19.99&in_stock=true']) {
      expect((await studio.get(`/api/v1/products${query}`)).json().data).toEqual([single]);
    }
  });

  it('when an organization has no products, then the list is empty', async () => {
    expect((await new Client(catalog.running).get('/api/v1/products')).json()).toEqual({
      data: [],
      meta: { total: 0, limit: 50, offset: 0, hasMore: false, next_cursor: null },
    });
  });
});
