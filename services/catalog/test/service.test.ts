import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeServiceBasics, prismaDatamodel, startedForTests } from '@app/service-testing';
import { SCHEMA } from '../src/service.js';
import { Client, startCatalog } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

describe('catalog service', () => {
  const catalog = startedForTests(startCatalog);

  describeServiceBasics({
    running: () => catalog.running,
    schema: SCHEMA,
    prismaSchema: new URL('../prisma/schema.prisma', import.meta.url),
    paths: [
      '/api/v1/media',
      '/api/v1/media/{id}',
      '/api/v1/products',
      '/api/v1/products/{id}',
      '/api/v1/products/{id}/images',
      '/api/v1/products/{id}/images/{imageId}',
      '/api/v1/products/{id}/variants',
      '/api/v1/products/{id}/variants/{variantId}',
      '/api/v1/inventory/reservations',
      '/api/v1/inventory/reservations/{id}',
      '/api/v1/inventory/reservations/{id}/commit',
      '/api/v1/categories',
      '/api/v1/categories/{id}',
    ],
  });

  it('when the drift check reads the Prisma schema, then it sees every model', () => {
    expect(prismaDatamodel(PRISMA_SCHEMA).models.map((model) => model.dbName)).toEqual([
      'media_files',
      'products',
      'product_images',
      'categories',
      'category_paths',
      'product_categories',
      'product_variants',
      'product_variant_lists',
      'inventory_reservations',
      'inventory_reservation_items',
    ]);
  });

  it('when a pooled connection runs SQL, then the catalog schema comes first on its search_path', async () => {
    const { rows } = await catalog.running.infra.pool.query<{ search_path: string }>('SHOW search_path');
    expect(rows[0]?.search_path.replace(/\s/g, '')).toBe(`${SCHEMA},public`);
  });

  it('when a request carries no organization, then it is refused with 401', async () => {
    const response = await catalog.running.app.inject({ method: 'GET', url: '/api/v1/products' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('when the same organization header differs only in case, then it is the same organization', async () => {
    const lower = new Client(catalog.running);
    const product = await lower.product();
    const upper = new Client(catalog.running, lower.organizationId.toUpperCase());
    expect((await upper.get(`/api/v1/products/${product.id}`)).statusCode).toBe(200);
  });
});
