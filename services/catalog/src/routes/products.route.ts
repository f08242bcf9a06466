import {
  createProductBodySchema,
  dataEnvelope,
  catalogDeletedSchema,
  errorBodySchema,
  listEnvelope,
  listProductsQuerySchema,
  productParamsSchema,
  productSchema,
  updateProductBodySchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { CatalogDeps } from '../use-cases/context.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../use-cases/products.js';
import { callerOf } from './caller.js';

const tags = ['products'];
const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export function registerProductRoutes(app: ServiceApp, deps: CatalogDeps): void {
  app.get(
    '/api/v1/products',
    {
      schema: {
        tags,
        summary: 'List products',
        querystring: listProductsQuerySchema,
        response: { 200: listEnvelope(productSchema), 400: errorBodySchema },
      },
    },
    async (request) => listProducts(deps, callerOf(request), request.query),
  );

  app.post(
    '/api/v1/products',
    {
      schema: {
        tags,
        summary: 'Create a product',
        body: createProductBodySchema,
        response: { 201: dataEnvelope(productSchema), ...errors },
      },
    },
    async (request, reply) => {
      const data = await createProduct(deps, callerOf(request), request.body);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/products/:id',
    {
      schema: {
        tags,
        summary: 'Get a product',
        params: productParamsSchema,
        response: { 200: dataEnvelope(productSchema), 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await getProduct(deps, callerOf(request), request.params.id) }),
  );

  app.patch(
    '/api/v1/products/:id',
    {
      schema: {
        tags,
        summary: 'Update a product',
        params: productParamsSchema,
        body: updateProductBodySchema,
        response: { 200: dataEnvelope(productSchema), ...errors },
      },
    },
    async (request) => ({ data: await updateProduct(deps, callerOf(request), request.params.id, request.body) }),
  );

  app.delete(
    '/api/v1/products/:id',
    {
      schema: {
        tags,
        summary: 'Delete a product and its image attachments',
        params: productParamsSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await deleteProduct(deps, callerOf(request), request.params.id) }),
  );
}
