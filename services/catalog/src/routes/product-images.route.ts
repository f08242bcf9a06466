import {
  attachImageBodySchema,
  dataEnvelope,
  catalogDeletedSchema,
  errorResponses,
  productImageParamsSchema,
  productImageSchema,
  productParamsSchema,
  updateImageBodySchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { z } from 'zod';
import type { CatalogDeps } from '../use-cases/context.js';
import { attachImage, deleteImage, listImages, updateImage } from '../use-cases/product-images.js';
import { callerOf } from './caller.js';

const tags = ['product images'];

export function registerProductImageRoutes(app: ServiceApp, deps: CatalogDeps): void {
  app.get(
    '/api/v1/products/:id/images',
    {
      schema: {
        operationId: 'listProductImages',
        summary: "A product's images by order_index",
        tags,
        params: productParamsSchema,
        response: { 200: z.object({ data: z.array(productImageSchema) }), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await listImages(deps, callerOf(request), request.params.id) }),
  );

  app.post(
    '/api/v1/products/:id/images',
    {
      schema: {
        operationId: 'attachProductImage',
        summary: 'Attach an uploaded media file',
        tags,
        params: productParamsSchema,
        body: attachImageBodySchema,
        response: { 201: dataEnvelope(productImageSchema), ...errorResponses('NOT_FOUND', 'MEDIA_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request, reply) => {
      const data = await attachImage(deps, callerOf(request), request.params.id, request.body);
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
        body: updateImageBodySchema,
        response: { 200: dataEnvelope(productImageSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({
      data: await updateImage(deps, callerOf(request), request.params.id, request.params.imageId, request.body),
    }),
  );

  app.delete(
    '/api/v1/products/:id/images/:imageId',
    {
      schema: {
        operationId: 'deleteProductImage',
        summary: 'Detach an image (the media file stays)',
        tags,
        params: productImageParamsSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request) => ({ data: await deleteImage(deps, callerOf(request), request.params.id, request.params.imageId) }),
  );
}
