import { mediaContentParamsSchema } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { getMediaContent } from '../use-cases/media.use-case.js';

/**
 * The bytes of a media file at its public URL. No key: the gateway proxies `/media` as a public prefix.
 * The bytes of a URL never change (a new upload gets a new token), so clients may cache them for good.
 */
export function registerMediaContentRoute(app: ServiceApp, ctx: UseCaseContext): void {
  app.get('/media/:token/:name', { schema: { hide: true, params: mediaContentParamsSchema } }, async (request, reply) => {
    const { mimeType, stored } = await getMediaContent(ctx, request.params);
    return reply
      .header('content-type', mimeType)
      .header('content-length', String(stored.size))
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(stored.body);
  });
}
