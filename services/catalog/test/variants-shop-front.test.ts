import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startCatalog } from './support/harness.js';
import { variantsWithStock } from './support/inventory.js';

/**
 * What a shop front sees of variants: `in_stock=true` with variants (API.md: published and some variant untracked or
 * with `available` > 0, reservations counted), and a publishable key reading published products with their variants.
 */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const ids = (response: { json(): { data: { id: string }[] } }) => response.json().data.map((product) => product.id);

describe('GET /api/v1/products?in_stock= with variants', () => {
  it('when products have variants, then in_stock follows their available stock, reservations and expiry included', async () => {
    const c = new Client(catalog.running);
    const soldOut = await variantsWithStock(c, [0, 0]);
    const oneLeft = await variantsWithStock(c, [0, 1]);
    const untracked = await variantsWithStock(c, [0, null]);
    // Its own stock says nothing once it has variants: its variants have none.
    const ownStock = await c.product({ status: 'published', stock: 10, options: [{ name: 'Kind', values: ['a'] }] });
    await c.post(`/api/v1/products/${ownStock.id}/variants`, { sku: `${ownStock.id}-a`, options: { Kind: 'a' }, stock: 0 });
    const draft = await variantsWithStock(c, [5]);
    await c.patch(`/api/v1/products/${draft.productId}`, { status: 'draft' });
    const inStock = async () => ids(await c.get('/api/v1/products?in_stock=true')).sort();
    const outOfStock = async () => ids(await c.get('/api/v1/products?in_stock=false')).sort();

    expect(await inStock()).toEqual([oneLeft.productId, untracked.productId].sort());
    expect(await outOfStock()).toEqual([soldOut.productId, ownStock.id, draft.productId].sort());

    const reserved = (
      await c.post('/api/v1/inventory/reservations', { items: [{ variant_id: oneLeft.variantIds[1], quantity: 1 }] })
    ).json().data;
    expect(await inStock()).toEqual([untracked.productId]);

    await catalog.running.infra.pool.query(
      `UPDATE catalog.inventory_reservation_items SET expires_at = now() - interval '1 millisecond' WHERE reservation_id = $1`,
      [reserved.id],
    );
    expect(await inStock()).toEqual([oneLeft.productId, untracked.productId].sort());
  });

  it('when a product without variants is reserved to its last unit, then it is out of stock', async () => {
    const c = new Client(catalog.running);
    const product = await c.product({ status: 'published', stock: 2 });
    await c.post('/api/v1/inventory/reservations', { items: [{ product_id: product.id, quantity: 2 }] });

    expect(ids(await c.get('/api/v1/products?in_stock=true'))).toEqual([]);
    expect((await c.get(`/api/v1/products/${product.id}`)).json().data).toMatchObject({ stock: 2, available: 0 });
  });

  it('when a name search finds products with variants, then each comes with its variants', async () => {
    const c = new Client(catalog.running);
    const { productId, variantIds } = await variantsWithStock(c, [1, 2, 3]);
    await c.product({ name: 'Unrelated', status: 'published' });

    const found = (await c.get('/api/v1/products?search=product')).json().data;

    expect(found.map((product: { id: string }) => product.id)).toEqual([productId]);
    expect(found[0].variants.map((variant: { id: string }) => variant.id)).toEqual(variantIds);
  });
});

describe('variants with a publishable key', () => {
  it('when a product is published, then its record, variant list and variants read as the secret key reads them', async () => {
    const secret = new Client(catalog.running);
    const publishable = new Client(catalog.running, secret.organizationId, 'publishable');
    const { productId, variantIds } = await variantsWithStock(secret, [4, null]);
    const variant = `/api/v1/products/${productId}/variants/${variantIds[0]}`;

    expect((await publishable.get(`/api/v1/products/${productId}`)).json().data).toEqual(
      (await secret.get(`/api/v1/products/${productId}`)).json().data,
    );
    expect((await publishable.get(`/api/v1/products?limit=5`)).json().data[0].variants).toHaveLength(2);
    expect((await publishable.get(`/api/v1/products/${productId}/variants`)).json().data).toHaveLength(2);
    expect((await publishable.get(variant)).json().data).toEqual((await secret.get(variant)).json().data);
  });

  it('when a product is a draft, then its variants are a 404; writes and reservations are refused', async () => {
    const secret = new Client(catalog.running);
    const publishable = new Client(catalog.running, secret.organizationId, 'publishable');
    const { productId, variantIds } = await variantsWithStock(secret, [4]);
    await secret.patch(`/api/v1/products/${productId}`, { status: 'draft' });

    expect((await publishable.get(`/api/v1/products/${productId}/variants`)).statusCode).toBe(404);
    expect((await publishable.get(`/api/v1/products/${productId}/variants/${variantIds[0]}`)).statusCode).toBe(404);
    expect((await publishable.post(`/api/v1/products/${productId}/variants`, { sku: 'NO' })).statusCode).toBe(403);
    expect(
      (await publishable.post('/api/v1/inventory/reservations', { items: [{ variant_id: variantIds[0], quantity: 1 }] })).statusCode,
    ).toBe(403);
  });
});
