import {
  createProductBodySchema,
  dataEnvelope,
  catalogDeletedSchema,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listProductsQuerySchema,
  productSchema,
  updateProductBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../use-cases/products.use-case.js';

const tags = ['products'];

/** /api/v1/products: the organization's products. */
export function registerProductRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/products',
    {
      schema: {
        operationId: 'listProducts',
        summary: 'List products, newest first',
        tags,
        querystring: listProductsQuerySchema,
        response: { 200: listEnvelope(productSchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listProducts(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.post(
    '/api/v1/products',
    {
      schema: {
        operationId: 'createProduct',
        summary: 'Create a product',
        tags,
        body: createProductBodySchema,
        response: { 201: dataEnvelope(productSchema), ...errorResponses('SLUG_TAKEN', 'MEDIA_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const data = await createProduct(ctx, callerOf(request), request.body);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/products/:id',
    {
      schema: {
        operationId: 'getProduct',
        summary: 'Get a product',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(productSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getProduct(ctx, callerOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/products/:id',
    {
      schema: {
        operationId: 'updateProduct',
        summary: 'Update a product',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateProductBodySchema,
        response: { 200: dataEnvelope(productSchema), ...errorResponses('NOT_FOUND', 'SLUG_TAKEN', 'MEDIA_NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const change = { id: request.params.id, changes: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateProduct(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/products/:id',
    {
      schema: {
        operationId: 'deleteProduct',
        summary: 'Delete a product and its image attachments',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteProduct(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );
}
