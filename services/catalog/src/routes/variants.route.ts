import {
  catalogDeletedSchema,
  createVariantBodySchema,
  dataEnvelope,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listVariantsQuerySchema,
  updateVariantBodySchema,
  variantParamsSchema,
  variantSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createVariant, deleteVariant, getVariant, listVariants, updateVariant } from '../use-cases/variants.use-case.js';

const tags = ['product variants'];

/** /api/v1/products/:id/variants: a product's variants (its options' combinations, each with its SKU, price and stock). */
export function registerVariantRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/products/:id/variants',
    {
      schema: {
        operationId: 'listProductVariants',
        summary: "A product's variants, oldest first",
        tags,
        params: idParamsSchema,
        querystring: listVariantsQuerySchema,
        response: { 200: listEnvelope(variantSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { items, meta } = await listVariants(ctx, callerOf(request), { productId: request.params.id, query: request.query });
      return { data: items, meta };
    },
  );

  app.post(
    '/api/v1/products/:id/variants',
    {
      schema: {
        operationId: 'createProductVariant',
        summary: 'Create a variant',
        tags,
        params: idParamsSchema,
        body: createVariantBodySchema,
        response: { 201: dataEnvelope(variantSchema), ...errorResponses('NOT_FOUND', 'SKU_TAKEN', 'VARIANT_EXISTS') },
      },
    },
    async (request, reply) => {
      const data = await createVariant(ctx, callerOf(request), { productId: request.params.id, body: request.body });
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/products/:id/variants/:variantId',
    {
      schema: {
        operationId: 'getProductVariant',
        summary: 'Get a variant',
        tags,
        params: variantParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(variantSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { id: productId, variantId } = request.params;
      return answerRecord(request, reply, await getVariant(ctx, callerOf(request), { productId, variantId }));
    },
  );

  app.patch(
    '/api/v1/products/:id/variants/:variantId',
    {
      schema: {
        operationId: 'updateProductVariant',
        summary: 'Update a variant',
        tags,
        params: variantParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateVariantBodySchema,
        response: { 200: dataEnvelope(variantSchema), ...errorResponses('NOT_FOUND', 'SKU_TAKEN', 'VARIANT_EXISTS') },
      },
    },
    async (request, reply) => {
      const { id: productId, variantId } = request.params;
      const change = { productId, variantId, changes: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateVariant(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/products/:id/variants/:variantId',
    {
      schema: {
        operationId: 'deleteProductVariant',
        summary: 'Delete a variant',
        tags,
        params: variantParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { id: productId, variantId } = request.params;
      return { data: await deleteVariant(ctx, callerOf(request), { productId, variantId, ifMatch: ifMatchOf(request) }) };
    },
  );
}
