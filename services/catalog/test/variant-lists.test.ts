import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startCatalog } from './support/harness.js';

/**
 * A listed product's variants come from the list the database keeps beside them (migration 0008), with the `available`
 * of reserved variants computed at read time: every change of a variant, reservation, expiry and race must leave the
 * listed record as the product's own read shows it.
 */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const SIZES = [{ name: 'Size', values: ['S', 'M', 'L'] }];

/** The product as its own read shows it and as the list and a name search show it: the three must be one record. */
async function listedAndRead(c: Client, productId: string) {
  const read = (await c.get(`/api/v1/products/${productId}`)).json().data;
  const listed = (await c.get('/api/v1/products?limit=200')).json().data.find((product: { id: string }) => product.id === productId);
  const found = (await c.get(`/api/v1/products?search=${encodeURIComponent(read.name)}`)).json().data;
  expect(listed).toEqual(read);
  expect(found).toEqual([read]);
  return read;
}

describe('GET /api/v1/products: the listed variants', () => {
  it('when a variant’s sku, title, options, price and stock are patched, then the listed product shows them', async () => {
    const c = new Client(catalog.running);
    const product = await c.product({ name: 'Patched shirt', price: 20, options: SIZES, status: 'published' });
    const variant = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'PS-S', options: { Size: 'S' }, stock: 3 })).json()
      .data;

    const patched = await c.patch(`/api/v1/products/${product.id}/variants/${variant.id}`, {
      sku: 'PS-M',
      title: 'Medium',
      options: { Size: 'M' },
      price: 12.5,
      stock: 7,
    });

    expect(patched.statusCode).toBe(200);
    const read = await listedAndRead(c, product.id);
    expect(read.variants).toEqual([
      {
        ...variant,
        sku: 'PS-M',
        title: 'Medium',
        options: { Size: 'M' },
        price: 12.5,
        stock: 7,
        available: 7,
        updated_at: expect.any(String),
      },
    ]);
    expect(read.variants[0].updated_at).toBe(patched.json().data.updated_at);

    // Without its own price, a variant shows the product's current one.
    await c.patch(`/api/v1/products/${product.id}/variants/${variant.id}`, { price: null });
    await c.patch(`/api/v1/products/${product.id}`, { price: 30 });
    expect((await listedAndRead(c, product.id)).variants[0].price).toBe(30);
  });

  it('when variants are added and deleted, then the list follows, oldest first, and without variants it is empty', async () => {
    const c = new Client(catalog.running);
    const product = await c.product({ name: 'Growing shirt', options: SIZES });
    const created = [];
    for (const size of ['S', 'M', 'L'])
      created.push((await c.post(`/api/v1/products/${product.id}/variants`, { sku: `GS-${size}`, options: { Size: size } })).json().data);
    expect((await listedAndRead(c, product.id)).variants.map((variant: { sku: string }) => variant.sku)).toEqual(['GS-S', 'GS-M', 'GS-L']);

    await c.delete(`/api/v1/products/${product.id}/variants/${created[1].id}`);
    expect((await listedAndRead(c, product.id)).variants.map((variant: { sku: string }) => variant.sku)).toEqual(['GS-S', 'GS-L']);

    for (const variant of [created[0], created[2]]) await c.delete(`/api/v1/products/${product.id}/variants/${variant.id}`);
    expect((await listedAndRead(c, product.id)).variants).toEqual([]);
    // A product deleted with its variants takes its kept list with it (the variants' trigger leaves it alone).
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'GS-S', options: { Size: 'S' } });
    expect((await c.delete(`/api/v1/products/${product.id}`)).statusCode).toBe(200);
    const { rows } = await catalog.running.infra.pool.query(`SELECT 1 FROM catalog.product_variant_lists WHERE product_id = $1`, [
      product.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('when a variant is reserved, committed, released and expires, then the listed available follows at once', async () => {
    const c = new Client(catalog.running);
    const product = await c.product({ name: 'Reserved shirt', options: SIZES, status: 'published' });
    const small = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'RS-S', options: { Size: 'S' }, stock: 5 })).json().data;
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'RS-M', options: { Size: 'M' }, stock: 2 });
    const available = async () => (await listedAndRead(c, product.id)).variants.map((variant: { available: number }) => variant.available);
    const reserve = async (quantity: number) =>
      (await c.post('/api/v1/inventory/reservations', { items: [{ variant_id: small.id, quantity }] })).json().data;

    const released = await reserve(2);
    expect(await available()).toEqual([3, 2]);
    await c.delete(`/api/v1/inventory/reservations/${released.id}`);
    expect(await available()).toEqual([5, 2]);

    const committed = await reserve(1);
    await c.post(`/api/v1/inventory/reservations/${committed.id}/commit`);
    expect(await available()).toEqual([4, 2]);
    expect((await listedAndRead(c, product.id)).variants[0].stock).toBe(4);

    const lapsing = await reserve(4);
    expect(await available()).toEqual([0, 2]);
    await catalog.running.infra.pool.query(
      `UPDATE catalog.inventory_reservation_items SET expires_at = now() - interval '1 millisecond' WHERE reservation_id = $1`,
      [lapsing.id],
    );
    expect(await available()).toEqual([4, 2]);
  });

  it('when a product’s only stocked variant is patched to stock 0 or reserved to its last unit, then it leaves in_stock', async () => {
    const c = new Client(catalog.running);
    const product = await c.product({ name: 'Last shirt', options: SIZES, status: 'published' });
    const variant = (await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'LS-S', options: { Size: 'S' }, stock: 1 })).json()
      .data;
    await c.post(`/api/v1/products/${product.id}/variants`, { sku: 'LS-M', options: { Size: 'M' }, stock: 0 });
    const inStock = async () => (await c.get('/api/v1/products?in_stock=true')).json().data.map((listed: { id: string }) => listed.id);

    expect(await inStock()).toEqual([product.id]);
    await c.post('/api/v1/inventory/reservations', { items: [{ variant_id: variant.id, quantity: 1 }] });
    expect(await inStock()).toEqual([]);
    expect((await c.get('/api/v1/products?in_stock=false')).json().data.map((listed: { id: string }) => listed.id)).toEqual([product.id]);

    await c.patch(`/api/v1/products/${product.id}/variants/${variant.id}`, { stock: 3 });
    expect(await inStock()).toEqual([product.id]);
    await c.patch(`/api/v1/products/${product.id}/variants/${variant.id}`, { stock: 0 });
    expect(await inStock()).toEqual([]);
    await c.patch(`/api/v1/products/${product.id}/variants/${variant.id}`, { stock: null });
    expect(await inStock()).toEqual([product.id]);
  });

  it('when two transactions add variants to one product at once, then its kept list has both', async () => {
    const c = new Client(catalog.running);
    const product = await c.product({ name: 'Raced shirt', options: SIZES });
    const { pool } = catalog.running.infra;
    const [first, second] = [await pool.connect(), await pool.connect()];
    const insert = (size: string) =>
      `INSERT INTO catalog.product_variants (id, organization_id, product_id, sku, options)
       VALUES (gen_random_uuid(), '${c.organizationId}', '${product.id}', 'RACE-${size}', '{"Size": "${size}"}')`;
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      await first.query(insert('S'));
      // Its trigger waits for the product's row, which the first holds until it commits.
      const waiting = second.query(insert('M'));
      await first.query('COMMIT');
      await waiting;
      await second.query('COMMIT');
    } finally {
      first.release();
      second.release();
    }

    const read = await listedAndRead(c, product.id);
    expect(read.variants.map((variant: { sku: string }) => variant.sku).sort()).toEqual(['RACE-M', 'RACE-S']);
  });
});
