import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startCatalog } from './support/harness.js';
import { stockOf, variantsWithStock } from './support/inventory.js';

/**
 * API.md: `available` never goes below 0, under any concurrency. Reservations of random items (one to three, some
 * named twice, some products without variants) race against small stocks; the reservations answered 201 must then
 * account for the stock exactly, item by item, and so must the commits and releases racing further reservations.
 */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const RESERVATIONS = '/api/v1/inventory/reservations';
const STOCKS = [3, 5, 1, 8, 2, 4];

/** A deterministic pseudo-random sequence (a failing run can be replayed). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

type Target = { key: string; item: { variant_id: string } | { product_id: string }; stock: number };
type Item = ({ variant_id: string } | { product_id: string }) & { quantity: number };

const keyOf = (item: Item) => ('variant_id' in item ? item.variant_id : item.product_id);

function randomItems(next: () => number, targets: readonly Target[]): Item[] {
  const count = 1 + Math.floor(next() * 3);
  return Array.from({ length: count }, () => {
    const target = targets[Math.floor(next() * targets.length)] as Target;
    return { ...target.item, quantity: 1 + Math.floor(next() * 2) };
  });
}

/** Per target: the quantity of the given reservations' items. */
function sums(reservations: readonly { items: Item[] }[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const reservation of reservations)
    for (const item of reservation.items) total.set(keyOf(item), (total.get(keyOf(item)) ?? 0) + item.quantity);
  return total;
}

describe('concurrent reservations', () => {
  it('when 200 reservations of random items race against small stocks, then the 201s and available add up to the stock exactly', async () => {
    const c = new Client(catalog.running);
    const { productId, variantIds } = await variantsWithStock(c, STOCKS.slice(0, 4));
    const plain = await Promise.all(STOCKS.slice(4).map((stock) => c.product({ stock })));
    const targets: Target[] = [
      ...variantIds.map((id, index) => ({ key: id, item: { variant_id: id }, stock: STOCKS[index] as number })),
      ...plain.map((product, index) => ({ key: product.id, item: { product_id: product.id }, stock: STOCKS[4 + index] as number })),
    ];
    const available = async (target: Target) =>
      'variant_id' in target.item
        ? (await stockOf(c, productId, target.key)).available
        : (await c.get(`/api/v1/products/${target.key}`)).json().data.available;
    const next = random(50);
    const bodies = Array.from({ length: 200 }, () => ({ items: randomItems(next, targets) }));

    const responses = await Promise.all(bodies.map((body) => c.post(RESERVATIONS, body)));

    expect(responses.map((response) => response.statusCode).filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const won = responses
      .filter((response) => response.statusCode === 201)
      .map((response) => response.json().data as { id: string; items: Item[] });
    expect(won.length).toBeGreaterThan(0);
    expect(won.length).toBeLessThan(200);
    const held = sums(won);
    for (const target of targets) {
      const shown = await available(target);
      expect(shown).toBeGreaterThanOrEqual(0);
      expect((held.get(target.key) ?? 0) + shown).toBe(target.stock);
    }

    // Commits and releases of those, racing 100 more reservations: stock then is what was committed off it, and
    // available is stock less what is still held.
    const committed = won.filter((_reservation, index) => index % 2 === 0);
    const released = won.filter((_reservation, index) => index % 2 === 1);
    const more = Array.from({ length: 100 }, () => ({ items: randomItems(next, targets) }));
    const [commits, releases, later] = await Promise.all([
      Promise.all(committed.map((reservation) => c.post(`${RESERVATIONS}/${reservation.id}/commit`))),
      Promise.all(released.map((reservation) => c.delete(`${RESERVATIONS}/${reservation.id}`))),
      Promise.all(more.map((body) => c.post(RESERVATIONS, body))),
    ]);

    expect([...commits, ...releases].map((response) => response.statusCode).filter((status) => status !== 200)).toEqual([]);
    const taken = sums(committed);
    const stillHeld = sums(later.filter((response) => response.statusCode === 201).map((response) => response.json().data));
    for (const target of targets) {
      const stock = target.stock - (taken.get(target.key) ?? 0);
      const shown = await available(target);
      expect(shown).toBeGreaterThanOrEqual(0);
      expect((stillHeld.get(target.key) ?? 0) + shown).toBe(stock);
    }
    const { rows } = await catalog.running.infra.pool.query<{ stock: number; reserved: number }>(
      `SELECT stock, reserved FROM catalog.product_variants WHERE product_id = $1 ORDER BY created_at, id`,
      [productId],
    );
    expect(rows.map((row) => row.stock)).toEqual(targets.slice(0, 4).map((target) => target.stock - (taken.get(target.key) ?? 0)));
    expect(rows.map((row) => row.reserved)).toEqual(targets.slice(0, 4).map((target) => stillHeld.get(target.key) ?? 0));
  });
});
