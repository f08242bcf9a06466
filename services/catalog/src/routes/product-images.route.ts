import {
  attachImageBodySchema,
  dataEnvelope,
  catalogDeletedSchema,
  errorResponses,
  ifMatchHeadersSchema,
  productImageParamsSchema,
  productImageSchema,
  updateImageBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import { z } from 'zod';
import type { UseCaseContext } from '../use-cases/context.js';
import { attachImage, deleteImage, listImages, updateImage } from '../use-cases/product-images.use-case.js';

const tags = ['product images'];

/** /api/v1/products/:id/images: a product's gallery of uploaded media files. */
export function registerProductImageRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/products/:id/images',
    {
      schema: {
        operationId: 'listProductImages',
        summary: "A product's images by order_index",
        tags,
        params: idParamsSchema,
        response: { 200: z.object({ data: z.array(productImageSchema) }), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await listImages(ctx, callerOf(request), request.params.id) }),
  );

  app.post(
    '/api/v1/products/:id/images',
    {
      schema: {
        operationId: 'attachProductImage',
        summary: 'Attach an uploaded media file',
        tags,
        params: idParamsSchema,
        body: attachImageBodySchema,
        response: { 201: dataEnvelope(productImageSchema), ...errorResponses('NOT_FOUND', 'MEDIA_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const data = await attachImage(ctx, callerOf(request), { productId: request.params.id, body: request.body });
      return reply.code(201).send({ data });
    },
  );

  app.patch(
    '/api/v1/products/:id/images/:imageId',
    {
      schema: {
        operationId: 'updateProductImage',
        summary: 'Move, feature or describe an image',
        tags,
        params: productImageParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateImageBodySchema,
        response: { 200: dataEnvelope(productImageSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const { id: productId, imageId } = request.params;
      const change = { productId, imageId, patch: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateImage(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/products/:id/images/:imageId',
    {
      schema: {
        operationId: 'deleteProductImage',
        summary: 'Detach an image (the media file stays)',
        tags,
        params: productImageParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => {
      const { id: productId, imageId } = request.params;
      return { data: await deleteImage(ctx, callerOf(request), { productId, imageId, ifMatch: ifMatchOf(request) }) };
    },
  );
}
