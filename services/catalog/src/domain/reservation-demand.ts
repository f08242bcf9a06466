/** What a reservation asks of one variant or product: the sum of its items' quantities, and the items that ask it. */
export interface Demand {
  kind: 'variant' | 'product';
  id: string;
  quantity: number;
  indexes: number[];
}

/**
 * The demands of a reservation's items, one per distinct variant or product: the same one named twice is reserved
 * once, for the sum of both quantities (and both items are named if that sum is short). Ordered by id, the order in
 * which their rows are locked.
 */
export function demandsOf(
  items: readonly { index: number; variant_id: string | null; product_id: string | null; quantity: number }[],
): Demand[] {
  const byKey = new Map<string, Demand>();
  for (const item of items) {
    const kind = item.variant_id !== null ? 'variant' : 'product';
    const id = item.variant_id ?? item.product_id ?? '';
    const key = `${kind}:${id}`;
    const demand = byKey.get(key) ?? { kind, id, quantity: 0, indexes: [] };
    demand.quantity += item.quantity;
    demand.indexes.push(item.index);
    byKey.set(key, demand);
  }
  return [...byKey.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a row has to reserve now: null when its stock is not tracked (it always reserves). */
export type Availability = number | null;

/**
 * The items that cannot be reserved (API.md: every short item, path `items.<index>`, and no other), by index; none when
 * every demand fits what is available.
 */
export function shortages(demands: readonly Demand[], availableOf: (demand: Demand) => Availability): { path: string; message: string }[] {
  const short = demands.flatMap((demand) => {
    const available = availableOf(demand);
    if (available === null || available >= demand.quantity) return [];
    return demand.indexes.map((index) => ({ index, message: `only ${available} available` }));
  });
  return short.sort((a, b) => a.index - b.index).map(({ index, message }) => ({ path: `items.${index}`, message }));
}
