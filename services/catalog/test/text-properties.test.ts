import { describe, it } from 'vitest';
import { createProductBodySchema } from '@app/contracts';
import { expectTextStoredAsValidated, organizationClient, startedForTests } from '@app/service-testing';
import { startCatalog } from './support/harness.js';

const catalog = startedForTests(startCatalog);

describe('POST /api/v1/products (any text)', () => {
  it.each([[['name']], [['description']], [['slug']]])(
    'when %j holds any string, then 201 with it stored as validated, or 400 naming it; never 500',
    async (path) => {
      // An organization per run: a name's slug is unique within one, and a repeat would be a 409, not what is tested here.
      let client = organizationClient(catalog.running.app);
      await expectTextStoredAsValidated({
        schema: createProductBodySchema,
        body: () => ({ name: 'Stoneware mug', price: 24.5, description: 'Hand-thrown' }),
        path,
        create: (body) => {
          client = organizationClient(catalog.running.app);
          return client.post('/api/v1/products', body);
        },
        read: (created) => client.get(`/api/v1/products/${String((created.body.data as { id: string }).id)}`),
      });
    },
  );
});
