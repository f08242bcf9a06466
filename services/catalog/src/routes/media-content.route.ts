import { mediaContentParamsSchema } from '@app/contracts';
import { isNotModified, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { getMediaContent } from '../use-cases/media.use-case.js';

/**
 * A day, not forever: the bytes of a URL never change, but a deleted file must stop being served by
 * shared caches too, and a day is how long a deletion may take to reach them. Clients revalidate with
 * the ETag after that and get a 304 (or the 404 of a deleted file), so nothing is downloaded twice.
 */
const CACHE_CONTROL = 'public, max-age=86400';

/** The bytes of a media file at its public URL. No key: the gateway proxies `/media` as a public prefix. */
export function registerMediaContentRoute(app: ServiceApp, ctx: UseCaseContext): void {
  app.get('/media/:token/:name', { schema: { hide: true, params: mediaContentParamsSchema } }, async (request, reply) => {
    const content = await getMediaContent(ctx, {
      ...request.params,
      isCurrent: (etag) => isNotModified(request, { etag }),
    });
    reply.header('etag', content.etag).header('cache-control', CACHE_CONTROL).header('x-content-type-options', 'nosniff');
    if (content.stored === null) return reply.code(304).send();
    return reply
      .header('content-type', content.mimeType)
      .header('content-length', String(content.stored.size))
      .header('content-disposition', 'inline')
      .send(content.stored.body);
  });
}
