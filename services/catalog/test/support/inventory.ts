import type { Client } from './harness.js';

/** A product with one variant per stock given (null: untracked), for reservations; their variant ids in that order. */
export async function variantsWithStock(
  c: Client,
  stocks: readonly (number | null)[],
): Promise<{ productId: string; variantIds: string[] }> {
  const values = stocks.map((_stock, index) => `v${index}`);
  const product = await c.product({ status: 'published', options: [{ name: 'Kind', values }] });
  const variantIds: string[] = [];
  for (const [index, stock] of stocks.entries()) {
    const response = await c.post(`/api/v1/products/${product.id}/variants`, {
      sku: `${product.id}-${index}`,
      options: { Kind: `v${index}` },
      stock,
    });
    if (response.statusCode !== 201) throw new Error(`variant failed: ${response.statusCode} ${response.body}`);
    variantIds.push(response.json().data.id);
  }
  return { productId: product.id, variantIds };
}

/** The variant's `available` and `stock` as GET shows them now. */
export async function stockOf(
  c: Client,
  productId: string,
  variantId: string,
): Promise<{ stock: number | null; available: number | null }> {
  const { stock, available } = (await c.get(`/api/v1/products/${productId}/variants/${variantId}`)).json().data;
  return { stock, available };
}
