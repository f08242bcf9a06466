import { z } from 'zod';
import { isNotModified, type ServiceApp } from '@app/service-kit';
import { feedContent } from '../use-cases/ics-feed.use-case.js';
import type { UseCaseContext } from '../use-cases/context.js';

/**
 * Whoever holds the URL may read it, and nobody else: no shared cache keeps it (`private`), and the calendar app
 * asks again each time (`no-cache`), which the ETag and Last-Modified make a 304 while nothing changed.
 */
const CACHE_CONTROL = 'private, no-cache';

const paramsSchema = z.object({ file: z.string() });

/**
 * The calendar at a feed's secret URL, `/ics/<token>.ics`. No key: the gateway proxies `/ics` as a public prefix,
 * and the token is the credential. Hidden from the API document, as the public media content is.
 */
export function registerIcsFeedContentRoute(app: ServiceApp, ctx: UseCaseContext): void {
  app.get('/ics/:file', { schema: { hide: true, params: paramsSchema } }, async (request, reply) => {
    const content = await feedContent(ctx, request.params.file, request.id);
    void reply
      .header('etag', content.etag)
      .header('last-modified', content.lastModified.toUTCString())
      .header('cache-control', CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex');
    if (isNotModified(request, content)) {
      return reply.code(304).send();
    }
    return reply.type('text/calendar; charset=utf-8').send(content.body);
  });
}
