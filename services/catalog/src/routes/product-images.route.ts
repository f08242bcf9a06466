import {
  attachImageBodySchema,
  dataEnvelope,
  catalogDeletedSchema,
  errorBodySchema,
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
const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export function registerProductImageRoutes(app: ServiceApp, deps: CatalogDeps): void {
  app.get(
    '/api/v1/products/:id/images',
    {
      schema: {
        tags,
        summary: "A product's images by order_index",
        params: productParamsSchema,
        response: { 200: z.object({ data: z.array(productImageSchema) }), 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await listImages(deps, callerOf(request), request.params.id) }),
  );

  app.post(
    '/api/v1/products/:id/images',
    {
      schema: {
        tags,
        summary: 'Attach an uploaded media file',
        params: productParamsSchema,
        body: attachImageBodySchema,
        response: { 201: dataEnvelope(productImageSchema), ...errors },
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
        tags,
        summary: 'Move, feature or describe an image',
        params: productImageParamsSchema,
        body: updateImageBodySchema,
        response: { 200: dataEnvelope(productImageSchema), ...errors },
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
        tags,
        summary: 'Detach an image (the media file stays)',
        params: productImageParamsSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await deleteImage(deps, callerOf(request), request.params.id, request.params.imageId) }),
  );
}
