import {
  dataEnvelope,
  catalogDeletedSchema,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listEnvelope,
  listMediaQuerySchema,
  mediaFileSchema,
  mediaUploadFormSchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createMedia, deleteMedia, getMedia, listMedia } from '../use-cases/media.use-case.js';
import { receiveUpload } from './media-upload.js';

const tags = ['media'];

/** /api/v1/media: uploaded images, listed, read and deleted. */
export function registerMediaRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.post(
    '/api/v1/media',
    {
      schema: {
        operationId: 'uploadMedia',
        summary: 'Upload an image',
        tags,
        description:
          'multipart/form-data with the image in `file` and an optional `alt_text`. JPEG, PNG, WebP, GIF or AVIF, judged by ' +
          'the bytes (415 otherwise); at most MEDIA_MAX_BYTES, and at most MEDIA_MAX_PIXELS (width × height) in the canvas and in ' +
          'every frame the file declares (413 beyond). `url` serves the bytes publicly.',
        consumes: ['multipart/form-data'],
        body: mediaUploadFormSchema,
        response: { 201: dataEnvelope(mediaFileSchema) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { upload, altText } = await receiveUpload(request, ctx);
      const data = await createMedia(ctx, caller, { upload, altText });
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
    async (request) => {
      const { items, meta } = await listMedia(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.get(
    '/api/v1/media/:id',
    {
      schema: {
        operationId: 'getMedia',
        summary: 'Get a media file',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(mediaFileSchema), ...errorResponses('MEDIA_NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getMedia(ctx, callerOf(request), request.params.id)),
  );

  app.delete(
    '/api/v1/media/:id',
    {
      schema: {
        operationId: 'deleteMedia',
        summary: 'Delete a media file (409 while a product uses it)',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(catalogDeletedSchema), ...errorResponses('MEDIA_NOT_FOUND', 'CONFLICT') },
      },
    },
    async (request) => ({ data: await deleteMedia(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );
}
