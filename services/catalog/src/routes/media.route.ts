import {
  dataEnvelope,
  catalogDeletedSchema,
  errorResponses,
  listEnvelope,
  listMediaQuerySchema,
  mediaFileSchema,
  mediaUploadFormSchema,
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
        operationId: 'uploadMedia',
        summary: 'Upload an image',
        tags,
        description:
          'multipart/form-data with the image in `file` and an optional `alt_text`. JPEG, PNG, WebP, GIF or AVIF, judged by ' +
          'the bytes (415 otherwise); at most MEDIA_MAX_BYTES (413 beyond). `url` serves the bytes publicly.',
        consumes: ['multipart/form-data'],
        body: mediaUploadFormSchema,
        response: { 201: dataEnvelope(mediaFileSchema) },
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
        operationId: 'listMedia',
        summary: 'List media files, newest first',
        tags,
        querystring: listMediaQuerySchema,
        response: { 200: listEnvelope(mediaFileSchema) },
      },
    },
    async (request) => listMedia(deps, callerOf(request), request.query),
  );

  app.get(
    '/api/v1/media/:id',
    {
      schema: {
        operationId: 'getMedia',
        summary: 'Get a media file',
        tags,
        params: mediaParamsSchema,
        response: { 200: dataEnvelope(mediaFileSchema), ...errorResponses('MEDIA_NOT_FOUND') },
      },
    },
    async (request) => ({ data: await getMedia(deps, callerOf(request), request.params.id) }),
  );

  app.delete(
    '/api/v1/media/:id',
    {
      schema: {
        operationId: 'deleteMedia',
        summary: 'Delete a media file (409 while a product uses it)',
        tags,
        params: mediaParamsSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), ...errorResponses('MEDIA_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) => ({ data: await deleteMedia(deps, callerOf(request), request.params.id) }),
  );
}
