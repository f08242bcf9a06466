// `medusa exec ./src/scripts/seed.ts`, run by bench/peers/run.mjs on a freshly migrated database: a region in euros,
// a publishable key on the store's default sales channel, and the bench's products (bench/peers/products.mjs, handed
// over as a JSON file in PEER_PRODUCTS_FILE), each with one variant priced in the region's currency, in batches through
// Medusa's own createProductsWorkflow, as a shop would import them.
import { readFileSync } from 'node:fs';
import type { ExecArgs } from '@medusajs/framework/types';
import { ContainerRegistrationKeys, Modules, ProductStatus } from '@medusajs/framework/utils';
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  updateStoresWorkflow,
} from '@medusajs/medusa/core-flows';

interface BenchProduct {
  title: string;
  description: string;
  handle: string;
  priceCents: number;
  published: boolean;
}

const BATCH = 250;
const REGION_NAME = 'Bench';
const KEY_TITLE = 'Bench peers';

export default async function seed({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER);
  const file = process.env.PEER_PRODUCTS_FILE;
  if (!file) throw new Error('PEER_PRODUCTS_FILE names the JSON file of the products to seed');
  const products = JSON.parse(readFileSync(file, 'utf8')) as BenchProduct[];

  const [store] = await container.resolve(Modules.STORE).listStores();
  if (!store?.default_sales_channel_id) throw new Error('the store has no default sales channel (was the database migrated?)');
  const salesChannelId = store.default_sales_channel_id;
  await updateStoresWorkflow(container).run({
    input: { selector: { id: store.id }, update: { supported_currencies: [{ currency_code: 'eur', is_default: true }] } },
  });
  await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: REGION_NAME,
          currency_code: 'eur',
          countries: ['de'],
          // run.mjs reads it back: a seed of another catalog is seeded again.
          metadata: { bench_seed: process.env.PEER_SEED_FINGERPRINT ?? '' },
        },
      ],
    },
  });
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: KEY_TITLE, type: 'publishable', created_by: '' }] },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [salesChannelId] } });

  const startedAt = Date.now();
  for (let from = 0; from < products.length; from += BATCH) {
    await createProductsWorkflow(container).run({
      input: {
        products: products.slice(from, from + BATCH).map((product) => ({
          title: product.title,
          description: product.description,
          handle: product.handle,
          status: product.published ? ProductStatus.PUBLISHED : ProductStatus.DRAFT,
          options: [{ title: 'Default option', values: ['Default'] }],
          variants: [
            {
              title: 'Default',
              options: { 'Default option': 'Default' },
              manage_inventory: false,
              prices: [{ amount: product.priceCents / 100, currency_code: 'eur' }],
            },
          ],
          sales_channels: [{ id: salesChannelId }],
        })),
      },
    });
    if ((from / BATCH) % 10 === 9) logger.info(`bench seed: ${from + BATCH} of ${products.length} products`);
  }
  logger.info(`bench seed: ${products.length} products in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
}
