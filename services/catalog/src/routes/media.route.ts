import {
  dataEnvelope,
  catalogDeletedSchema,
  errorBodySchema,
  listEnvelope,
  listMediaQuerySchema,
  mediaFileSchema,
  mediaParamsSchema,
} from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { CatalogDeps } from '../use-cases/context.js';
import { createMedia, deleteMedia, getMedia, listMedia } from '../use-cases/media.js';
import { callerOf } from './caller.js';
import { receiveUpload } from './media-upload.js';

const tags = ['media'];

export function registerMediaRoutes(app: ServiceApp, deps: CatalogDeps): void {
  app.post(
    '/api/v1/media',
    {
      schema: {
        tags,
        summary: 'Upload an image',
        description:
          'multipart/form-data with the image in `file` and an optional `alt_text`. JPEG, PNG, WebP, GIF or AVIF, judged by ' +
          'the bytes (415 otherwise); at most MEDIA_MAX_BYTES (413 beyond). `url` serves the bytes publicly.',
        consumes: ['multipart/form-data'],
        response: { 201: dataEnvelope(mediaFileSchema), 400: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { upload, altText } = await receiveUpload(request, deps);
      const data = await createMedia(deps, caller, upload, altText);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/media',
    {
      schema: {
        tags,
        summary: 'List media files, newest first',
        querystring: listMediaQuerySchema,
        response: { 200: listEnvelope(mediaFileSchema), 400: errorBodySchema },
      },
    },
    async (request) => listMedia(deps, callerOf(request), request.query),
  );

  app.get(
    '/api/v1/media/:id',
    {
      schema: {
        tags,
        summary: 'Get a media file',
        params: mediaParamsSchema,
        response: { 200: dataEnvelope(mediaFileSchema), 404: errorBodySchema },
      },
    },
    async (request) => ({ data: await getMedia(deps, callerOf(request), request.params.id) }),
  );

  app.delete(
    '/api/v1/media/:id',
    {
      schema: {
        tags,
        summary: 'Delete a media file (409 while a product uses it)',
        params: mediaParamsSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => ({ data: await deleteMedia(deps, callerOf(request), request.params.id) }),
  );
}
