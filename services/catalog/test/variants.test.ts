import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRecorder } from './support/events.js';
import { Client, startCatalog } from './support/harness.js';

/** Options and variants (API.md, "Variants, inventory and categories"): CRUD, their checks, and the product's record. */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const client = () => new Client(catalog.running);
const OPTIONS = [
  { name: 'Colour', values: ['Red', 'Blue'] },
  { name: 'Size', values: ['S', 'M', 'L'] },
];

async function shirt(c: Client, body: Record<string, unknown> = {}) {
  return c.product({ name: 'Shirt', price: 20, options: OPTIONS, ...body });
}

describe('POST /api/v1/products/{id}/variants', () => {
  it('when the options fit, then 201 with the variant, its price the product’s, and the product embeds it', async () => {
    const c = client();
    const product = await shirt(c);

    const response = await c.post(`/api/v1/products/${product.id}/variants`, {
      sku: 'SH-R-M',
      options: { Size: 'M', Colour: 'Red' },
      stock: 5,
    });

    expect(response.statusCode).toBe(201);
    const variant = response.json().data;
    expect(variant).toEqual({
      id: expect.any(String),
      product_id: product.id,
      sku: 'SH-R-M',
      title: null,
      options: { Colour: 'Red', Size: 'M' },
      price: 20,
      stock: 5,
      available: 5,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const read = (await c.get(`/api/v1/products/${product.id}`)).json().data;
    expect(read.options).toEqual(OPTIONS);
    expect(read.variants).toEqual([variant]);
    expect(read.updated_at > String(product.updated_at)).toBe(true);
    expect((await c.get(`/api/v1/products/${product.id}/variants/${variant.id}`)).json().data).toEqual(variant);
  });

  it('when the variant has its own price, then it shows it; without one it follows the product’s current price', async () => {
    const c = client();
    const product = await shirt(c);
    const own = (
      await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'A', options: { Colour: 'Red', Size: 'S' }, price: 25.5 })
    ).json().data;
    const follows = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'B', options: { Colour: 'Red', Size: 'L' } })).json()
      .data;

    await c.patch(`/api/v1/products/${product.id}`, { price: 18 });

    expect((await c.get(`/api/v1/products/${product.id}/variants/${own.id}`)).json().data.price).toBe(25.5);
    expect((await c.get(`/api/v1/products/${product.id}/variants/${follows.id}`)).json().data.price).toBe(18);
  });

  it.each([
    [{ Colour: 'Red' }, 'options.Size', 'options.Size is required'],
    [{ Colour: 'Green', Size: 'M' }, 'options.Colour', 'options.Colour must be one of Red, Blue'],
    [{ Colour: 'Red', Size: 'M', Fit: 'Slim' }, 'options.Fit', 'options.Fit is not an option of the product'],
  ])('when the options are %j, then 400 naming %s', async (options, path, message) => {
    const c = client();
    const product = await shirt(c);

    const response = await c.post(`/api/v1/products/${product.id}/variants`, { sku: randomUUID(), options });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message, code: 'VALIDATION_ERROR', details: [{ path, message }] });
  });

  it('when another variant of the product has the same values, then 409 VARIANT_EXISTS, whatever their order', async () => {
    const c = client();
    const product = await shirt(c);
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'ONE', options: { Colour: 'Blue', Size: 'S' } });

    const response = await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'TWO', options: { Size: 'S', Colour: 'Blue' } });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'VARIANT_EXISTS' });
  });

  it('when a product has no options, then it takes one variant and a second is VARIANT_EXISTS', async () => {
    const c = client();
    const product = await c.product();
    expect((await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'ONLY' })).statusCode).toBe(201);

    const second = await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'OTHER' });

    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'VARIANT_EXISTS' });
  });

  it('when an SKU is used by another product of the organization, then 409 SKU_TAKEN; another organization may use it', async () => {
    const c = client();
    const first = await shirt(c);
    const second = await shirt(c);
    await c.post(`/api/v1/products/${first.id}/variants`, { sku: 'DUP', options: { Colour: 'Red', Size: 'S' } });

    const taken = await c.post(`/api/v1/products/${second.id}/variants`, { sku: 'DUP', options: { Colour: 'Red', Size: 'S' } });
    const other = client();
    const elsewhere = await other.post(`/api/v1/products/${(await shirt(other)).id}/variants`, {
      sku: 'DUP',
      options: { Colour: 'Red', Size: 'S' },
    });

    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'A variant with this SKU already exists', code: 'SKU_TAKEN' });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('when twenty creates race for one SKU on different products, then exactly one is 201 and the rest SKU_TAKEN', async () => {
    const c = client();
    const products = await Promise.all(Array.from({ length: 20 }, () => c.product()));

    const responses = await Promise.all(products.map((product) => c.post(`/api/v1/products/${product.id}/variants`, { sku: 'RACE' })));

    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    const refused = responses.filter((response) => response.statusCode !== 201);
    expect(refused.map((response) => [response.statusCode, response.json().code])).toEqual(refused.map(() => [409, 'SKU_TAKEN']));
  });

  it('when a variant is written by a session on another search_path, then its product is still touched', async () => {
    const c = client();
    const product = await c.product();
    const db = await catalog.running.infra.pool.connect();
    try {
      await db.query('BEGIN');
      await db.query('SET LOCAL search_path TO public');
      await db.query(
        `INSERT INTO catalog.product_variants (id, organization_id, product_id, sku) VALUES (gen_random_uuid(), $1, $2, 'SQL')`,
        [c.organizationId, product.id],
      );
      await db.query('COMMIT');
    } finally {
      db.release();
    }

    const read = (await c.get(`/api/v1/products/${product.id}`)).json().data;
    expect(read.variants.map((variant: { sku: string }) => variant.sku)).toEqual(['SQL']);
    expect(read.updated_at > String(product.updated_at)).toBe(true);
  });

  it('when the product is unknown or of another organization, then 404', async () => {
    const product = await client().product();

    const response = await client().post(`/api/v1/products/${product.id}/variants`, { sku: 'X' });

    expect(response.statusCode).toBe(404);
    expect((await client().post(`/api/v1/products/not-a-uuid/variants`, { sku: 'X' })).statusCode).toBe(404);
  });
});

describe('product options', () => {
  it.each([
    [
      [
        { name: 'A', values: ['x'] },
        { name: 'A', values: ['y'] },
      ],
      'options.1.name',
    ],
    [[{ name: 'A', values: ['x', 'x'] }], 'options.0.values.1'],
    [[{ name: 'A', values: [] }], 'options.0.values'],
    [[1, 2, 3, 4].map((n) => ({ name: `O${n}`, values: ['x'] })), 'options'],
  ])('when the options are %j, then 400 naming %s', async (options, path) => {
    const response = await client().post('/api/v1/products', { name: 'P', price: 1, options });

    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([expect.objectContaining({ path })]);
  });

  it('when a change would leave a variant with a value the product no longer lists, then 400 naming options and nothing changes', async () => {
    const c = client();
    const product = await shirt(c);
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'KEEP', options: { Colour: 'Red', Size: 'M' } });

    const dropped = await c.patch(`/api/v1/products/${product.id}`, {
      options: [
        { name: 'Colour', values: ['Blue', 'Red'] },
        { name: 'Size', values: ['S', 'L'] },
      ],
    });
    const added = await c.patch(`/api/v1/products/${product.id}`, { options: [...OPTIONS, { name: 'Fit', values: ['Slim'] }] });
    const widened = await c.patch(`/api/v1/products/${product.id}`, {
      options: [{ name: 'Colour', values: ['Red', 'Blue', 'Green'] }, OPTIONS[1]],
    });

    expect(dropped.statusCode).toBe(400);
    expect(dropped.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'options' }] });
    expect(dropped.json().error).toContain('KEEP');
    expect(added.statusCode).toBe(400);
    expect(widened.statusCode).toBe(200);
    expect(widened.json().data.options[0].values).toEqual(['Red', 'Blue', 'Green']);
  });
});

describe('GET/PATCH/DELETE /api/v1/products/{id}/variants/{variantId}', () => {
  it('when variants are listed page by page, then oldest first with cursors, and updated_since keeps the changed ones', async () => {
    const c = client();
    const product = await shirt(c);
    const created = [];
    for (const [Colour, Size] of [
      ['Red', 'S'],
      ['Red', 'M'],
      ['Blue', 'S'],
    ]) {
      created.push(
        (await c.post(`/api/v1/products/${product.id}/variants`, { sku: `${Colour}-${Size}`, options: { Colour, Size } })).json().data,
      );
    }

    const first = (await c.get(`/api/v1/products/${product.id}/variants?limit=2`)).json();
    const second = (
      await c.get(`/api/v1/products/${product.id}/variants?limit=2&cursor=${encodeURIComponent(first.meta.next_cursor)}`)
    ).json();
    const since = new Date().toISOString();
    await c.patch(`/api/v1/products/${product.id}/variants/${created[1].id}`, { stock: 3 });
    const changed = (await c.get(`/api/v1/products/${product.id}/variants?updated_since=${since}`)).json();

    expect([...first.data, ...second.data].map((variant: { id: string }) => variant.id)).toEqual(created.map((variant) => variant.id));
    expect(first.meta).toMatchObject({ total: 3, hasMore: true });
    expect(changed.data.map((variant: { id: string }) => variant.id)).toEqual([created[1].id]);
  });

  it('when a variant is patched with If-Match, then its ETag and its product’s ETag change, and a stale one is 412', async () => {
    const c = client();
    const product = await shirt(c);
    const variant = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'E', options: { Colour: 'Red', Size: 'S' } })).json()
      .data;
    const path = `/api/v1/products/${product.id}/variants/${variant.id}`;
    const etag = String((await c.get(path)).headers.etag);
    const productEtag = String((await c.get(`/api/v1/products/${product.id}`)).headers.etag);

    const events = new EventRecorder(catalog.running, ['catalog.variant.updated']);
    const patched = await catalog.running.app.inject({
      method: 'PATCH',
      url: path,
      headers: { ...c.headers, 'if-match': etag },
      payload: { title: 'Red S', price: 22 },
    });
    const stale = await catalog.running.app.inject({
      method: 'PATCH',
      url: path,
      headers: { ...c.headers, 'if-match': etag },
      payload: { title: 'Again' },
    });
    const [event] = await events.waitFor((e) => e.organization_id === c.organizationId);
    events.close();

    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ title: 'Red S', price: 22 });
    expect(patched.headers.etag).not.toBe(etag);
    expect(stale.statusCode).toBe(412);
    expect((await c.get(`/api/v1/products/${product.id}`)).headers.etag).not.toBe(productEtag);
    expect(event?.data).toMatchObject({ id: variant.id, product_id: product.id, previous_attributes: { title: null, price: 20 } });
  });

  it('when a variant is patched to the same values as another, then 409 VARIANT_EXISTS; with a value not listed, 400', async () => {
    const c = client();
    const product = await shirt(c);
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'P1', options: { Colour: 'Red', Size: 'S' } });
    const other = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'P2', options: { Colour: 'Red', Size: 'M' } })).json()
      .data;

    const same = await c.patch(`/api/v1/products/${product.id}/variants/${other.id}`, { options: { Colour: 'Red', Size: 'S' } });
    const unlisted = await c.patch(`/api/v1/products/${product.id}/variants/${other.id}`, { options: { Colour: 'Red', Size: 'XL' } });

    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ code: 'VARIANT_EXISTS' });
    expect(unlisted.statusCode).toBe(400);
    expect(unlisted.json().details).toEqual([{ path: 'options.Size', message: 'options.Size must be one of S, M, L' }]);
  });

  it('when a variant is deleted, then it is gone from the product with an event, and the product can be deleted after', async () => {
    const c = client();
    const product = await shirt(c);
    const variant = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'GONE', options: { Colour: 'Red', Size: 'S' } })).json()
      .data;
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'STAYS', options: { Colour: 'Blue', Size: 'S' } });
    const events = new EventRecorder(catalog.running, ['catalog.variant.deleted']);

    const deleted = await c.delete(`/api/v1/products/${product.id}/variants/${variant.id}`);
    const [event] = await events.waitFor((e) => e.organization_id === c.organizationId);
    events.close();

    expect(deleted.json()).toEqual({ data: { id: variant.id, deleted: true } });
    expect(event?.data).toEqual({ id: variant.id, product_id: product.id });
    expect((await c.get(`/api/v1/products/${product.id}/variants/${variant.id}`)).statusCode).toBe(404);
    expect((await c.get(`/api/v1/products/${product.id}`)).json().data.variants.map((v: { sku: string }) => v.sku)).toEqual(['STAYS']);
    expect((await c.delete(`/api/v1/products/${product.id}`)).statusCode).toBe(200);
    expect((await c.get(`/api/v1/products/${product.id}/variants`)).statusCode).toBe(404);
  });

  it('when the variant belongs to another product, then 404', async () => {
    const c = client();
    const product = await shirt(c);
    const variant = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'MINE', options: { Colour: 'Red', Size: 'S' } })).json()
      .data;
    const other = await shirt(c);

    expect((await c.get(`/api/v1/products/${other.id}/variants/${variant.id}`)).statusCode).toBe(404);
    expect((await c.patch(`/api/v1/products/${other.id}/variants/${variant.id}`, { stock: 1 })).statusCode).toBe(404);
    expect((await c.get(`/api/v1/products/${product.id}/variants/nope`)).statusCode).toBe(404);
  });
});
