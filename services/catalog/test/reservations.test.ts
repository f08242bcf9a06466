import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRecorder } from './support/events.js';
import { Client, startCatalog } from './support/harness.js';
import { stockOf, variantsWithStock } from './support/inventory.js';

/** Inventory reservations (API.md, "Variants, inventory and categories"): all or none, commit, release, expiry at read time. */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const client = () => new Client(catalog.running);
const RESERVATIONS = '/api/v1/inventory/reservations';

/** Moves the reservation's expiry (and its items') into the past, as the database's clock judges it. */
async function lapse(id: string): Promise<void> {
  const { pool } = catalog.running.infra;
  await pool.query(`UPDATE catalog.inventory_reservations SET expires_at = now() - interval '1 millisecond' WHERE id = $1`, [id]);
  await pool.query(
    `UPDATE catalog.inventory_reservation_items SET expires_at = now() - interval '1 millisecond' WHERE reservation_id = $1`,
    [id],
  );
}

describe('POST /api/v1/inventory/reservations', () => {
  it('when every item has stock, then 201 active, the items as sent, expires_at after ttl_seconds, and available goes down', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [5, 3]);
    const plain = await c.product({ stock: 4 });

    const response = await c.post(RESERVATIONS, {
      items: [
        { variant_id: variantIds[0], quantity: 2 },
        { product_id: plain.id, quantity: 4 },
      ],
      ttl_seconds: 120,
    });

    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data).toEqual({
      id: expect.any(String),
      status: 'active',
      items: [
        { variant_id: variantIds[0], quantity: 2 },
        { product_id: plain.id, quantity: 4 },
      ],
      expires_at: expect.stringMatching(/Z$/),
      created_at: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(120_000);
    expect(await stockOf(c, productId, String(variantIds[0]))).toEqual({ stock: 5, available: 3 });
    expect((await c.get(`/api/v1/products/${plain.id}`)).json().data).toMatchObject({ stock: 4, available: 0 });
    expect((await c.get(`${RESERVATIONS}/${data.id}`)).json().data).toEqual(data);
  });

  it('when some items are short, then 409 OUT_OF_STOCK naming every short item and no other, and nothing is reserved', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [5, 2, 0, null]);
    const [plenty, two, none, untracked] = variantIds as [string, string, string, string];

    const response = await c.post(RESERVATIONS, {
      items: [
        { variant_id: plenty, quantity: 5 },
        { variant_id: two, quantity: 3 },
        { variant_id: untracked, quantity: 1000 },
        { variant_id: none, quantity: 1 },
      ],
    });

    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'OUT_OF_STOCK',
      details: [
        { path: 'items.1', message: 'only 2 available' },
        { path: 'items.3', message: 'only 0 available' },
      ],
    });
    expect(await stockOf(c, productId, plenty)).toEqual({ stock: 5, available: 5 });
  });

  it('when one variant is named twice, then the quantities are summed, and both items are named if the sum is short', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [3]);
    const [id] = variantIds as [string];

    const short = await c.post(RESERVATIONS, {
      items: [
        { variant_id: id, quantity: 2 },
        { variant_id: id, quantity: 2 },
      ],
    });
    const fits = await c.post(RESERVATIONS, {
      items: [
        { variant_id: id, quantity: 1 },
        { variant_id: id, quantity: 2 },
      ],
    });

    expect(short.json().details).toEqual([
      { path: 'items.0', message: 'only 3 available' },
      { path: 'items.1', message: 'only 3 available' },
    ]);
    expect(fits.statusCode).toBe(201);
    expect(await stockOf(c, productId, id)).toEqual({ stock: 3, available: 0 });
  });

  it('when stock is not tracked, then any quantity reserves and available stays null', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [null]);

    const response = await c.post(RESERVATIONS, { items: [{ variant_id: variantIds[0], quantity: 999 }] });

    expect(response.statusCode).toBe(201);
    expect(await stockOf(c, productId, String(variantIds[0]))).toEqual({ stock: null, available: null });
  });

  it('when an id is unknown, malformed or of another organization, then 404 NOT_FOUND and nothing is reserved', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [5]);
    const foreign = await variantsWithStock(client(), [5]);

    for (const item of [
      { variant_id: randomUUID() },
      { variant_id: 'nope' },
      { variant_id: foreign.variantIds[0] },
      { product_id: randomUUID() },
    ]) {
      const response = await c.post(RESERVATIONS, {
        items: [
          { variant_id: variantIds[0], quantity: 1 },
          { ...item, quantity: 1 },
        ],
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(await stockOf(c, productId, String(variantIds[0]))).toEqual({ stock: 5, available: 5 });
  });

  it('when a product_id names a product with variants, then 400 naming items.<index>.product_id', async () => {
    const c = client();
    const { productId } = await variantsWithStock(c, [5]);
    const plain = await c.product({ stock: 1 });

    const response = await c.post(RESERVATIONS, {
      items: [
        { product_id: plain.id, quantity: 1 },
        { product_id: productId, quantity: 1 },
      ],
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'items.1.product_id' }] });
  });

  it.each([
    [{ items: [{ quantity: 1 }] }, 'items.0.variant_id'],
    [{ items: [{ variant_id: randomUUID(), product_id: randomUUID(), quantity: 1 }] }, 'items.0.variant_id'],
    [{ items: [{ variant_id: randomUUID(), quantity: 0 }] }, 'items.0.quantity'],
    [{ items: [] }, 'items'],
    [{ items: Array.from({ length: 51 }, () => ({ variant_id: randomUUID(), quantity: 1 })) }, 'items'],
    [{ items: [{ variant_id: randomUUID(), quantity: 1 }], ttl_seconds: 59 }, 'ttl_seconds'],
    [{ items: [{ variant_id: randomUUID(), quantity: 1 }], ttl_seconds: 86_401 }, 'ttl_seconds'],
  ])('when the body is %j, then 400 naming %s', async (body, path) => {
    const response = await client().post(RESERVATIONS, body);

    expect(response.statusCode).toBe(400);
    expect(response.json().details[0].path).toBe(path);
  });

  it('when the same Idempotency-Key is sent twice, then one reservation is made and the answer replayed', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [5]);
    const send = () =>
      catalog.running.app.inject({
        method: 'POST',
        url: RESERVATIONS,
        headers: { ...c.headers, 'idempotency-key': `k-${productId}` },
        payload: { items: [{ variant_id: variantIds[0], quantity: 2 }] },
      });

    const first = await send();
    const again = await send();

    expect(again.json()).toEqual(first.json());
    expect(await stockOf(c, productId, String(variantIds[0]))).toEqual({ stock: 5, available: 3 });
  });
});

describe('commit, release and expiry', () => {
  it('when committed, then stock goes down for good with an inventory_reservation.committed event; again is INVALID_TRANSITION', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [5]);
    const plain = await c.product({ stock: 2 });
    const reserved = (
      await c.post(RESERVATIONS, {
        items: [
          { variant_id: variantIds[0], quantity: 2 },
          { product_id: plain.id, quantity: 1 },
        ],
      })
    ).json().data;
    const events = new EventRecorder(catalog.running, ['catalog.inventory_reservation.committed']);

    const committed = await c.post(`${RESERVATIONS}/${reserved.id}/commit`);
    const [event] = await events.waitFor((e) => e.organization_id === c.organizationId);
    events.close();
    const again = await c.post(`${RESERVATIONS}/${reserved.id}/commit`);
    const release = await c.delete(`${RESERVATIONS}/${reserved.id}`);

    expect(committed.statusCode).toBe(200);
    expect(committed.json().data).toEqual({ ...reserved, status: 'committed' });
    expect(event?.data).toEqual({ id: reserved.id, record: { ...reserved, status: 'committed' } });
    expect(await stockOf(c, productId, String(variantIds[0]))).toEqual({ stock: 3, available: 3 });
    expect((await c.get(`/api/v1/products/${plain.id}`)).json().data).toMatchObject({ stock: 1, available: 1 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'Cannot transition from committed to committed', code: 'INVALID_TRANSITION' });
    expect(release.json()).toEqual({ error: 'Cannot transition from committed to released', code: 'INVALID_TRANSITION' });
  });

  it('when released, then the stock is available again and the status is released; a commit after is INVALID_TRANSITION', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [4]);
    const reserved = (await c.post(RESERVATIONS, { items: [{ variant_id: variantIds[0], quantity: 4 }] })).json().data;

    const released = await c.delete(`${RESERVATIONS}/${reserved.id}`);
    const commit = await c.post(`${RESERVATIONS}/${reserved.id}/commit`);

    expect(released.json().data).toMatchObject({ id: reserved.id, status: 'released' });
    expect(await stockOf(c, productId, String(variantIds[0]))).toEqual({ stock: 4, available: 4 });
    expect(commit.json()).toEqual({ error: 'Cannot transition from released to committed', code: 'INVALID_TRANSITION' });
  });

  it('when expires_at passes, then at once it reads expired, holds nothing, cannot be committed, and its stock reserves again', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [3]);
    const [id] = variantIds as [string];
    const reserved = (await c.post(RESERVATIONS, { items: [{ variant_id: id, quantity: 3 }], ttl_seconds: 60 })).json().data;
    expect(await stockOf(c, productId, id)).toEqual({ stock: 3, available: 0 });

    await lapse(reserved.id);

    expect((await c.get(`${RESERVATIONS}/${reserved.id}`)).json().data.status).toBe('expired');
    expect(await stockOf(c, productId, id)).toEqual({ stock: 3, available: 3 });
    expect((await c.get(`/api/v1/products/${productId}`)).json().data.variants[0].available).toBe(3);
    expect((await c.post(`${RESERVATIONS}/${reserved.id}/commit`)).json()).toEqual({
      error: 'Cannot transition from expired to committed',
      code: 'INVALID_TRANSITION',
    });
    const again = await c.post(RESERVATIONS, { items: [{ variant_id: id, quantity: 3 }] });
    expect(again.statusCode).toBe(201);
    expect(await stockOf(c, productId, id)).toEqual({ stock: 3, available: 0 });
    expect((await c.get(`${RESERVATIONS}/${reserved.id}`)).json().data.status).toBe('expired');
    expect((await c.delete(`${RESERVATIONS}/${reserved.id}`)).json().code).toBe('INVALID_TRANSITION');
  });

  it('when stock is patched below what is reserved, then available shows 0, the reservation stands, and its commit never takes stock below 0', async () => {
    const c = client();
    const { productId, variantIds } = await variantsWithStock(c, [5]);
    const [id] = variantIds as [string];
    const reserved = (await c.post(RESERVATIONS, { items: [{ variant_id: id, quantity: 4 }] })).json().data;

    await c.patch(`/api/v1/products/${productId}/variants/${id}`, { stock: 2 });
    const shown = await stockOf(c, productId, id);
    const refused = await c.post(RESERVATIONS, { items: [{ variant_id: id, quantity: 1 }] });
    await c.patch(`/api/v1/products/${productId}/variants/${id}`, { stock: 6 });
    const raised = await stockOf(c, productId, id);
    await c.post(`${RESERVATIONS}/${reserved.id}/commit`);

    expect(shown).toEqual({ stock: 2, available: 0 });
    expect(refused.json().details).toEqual([{ path: 'items.0', message: 'only 0 available' }]);
    expect(raised).toEqual({ stock: 6, available: 2 });
    expect(await stockOf(c, productId, id)).toEqual({ stock: 2, available: 2 });
  });

  it('when a reservation is unknown or of another organization, then 404 on read, commit and release', async () => {
    const c = client();
    const { variantIds } = await variantsWithStock(c, [5]);
    const reserved = (await c.post(RESERVATIONS, { items: [{ variant_id: variantIds[0], quantity: 1 }] })).json().data;
    const other = client();

    for (const response of [
      await other.get(`${RESERVATIONS}/${reserved.id}`),
      await other.post(`${RESERVATIONS}/${reserved.id}/commit`),
      await other.delete(`${RESERVATIONS}/${reserved.id}`),
      await c.get(`${RESERVATIONS}/not-a-uuid`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
  });
});
