import { mediaContentParamsSchema } from '@app/contracts';
import type { ServiceApp } from '@app/service-kit';
import { findMediaByToken } from '../db/media.repository.js';
import type { CatalogDeps } from '../use-cases/context.js';
import { mediaNotFound } from '../use-cases/context.js';

/** A token is 24 random bytes in base64url; anything else cannot name a file and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/**
 * The bytes of a media file at its public URL. No key: the gateway proxies `/media` as a public prefix,
 * and the random token in the path is what keeps a file private to whoever was given its URL. The bytes
 * of a URL never change (a new upload gets a new token), so clients may cache them for good.
 */
export function registerMediaContentRoute(app: ServiceApp, deps: CatalogDeps): void {
  app.get('/media/:token/:name', { schema: { hide: true, params: mediaContentParamsSchema } }, async (request, reply) => {
    const { token, name } = request.params;
    const media = TOKEN.test(token) ? await findMediaByToken(deps.prisma, token) : null;
    if (!media || media.publicName !== name) throw mediaNotFound();
    const stored = await deps.storage.get(media.storageKey);
    if (!stored) throw mediaNotFound();
    return reply
      .header('content-type', media.mimeType)
      .header('content-length', String(stored.size))
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(stored.body);
  });
}
