import type { FastifyReply, FastifyRequest } from 'fastify';
import { ANY_ORIGIN, KEY_REFUSALS, keyRefusal } from '@app/contracts';
import { AppError } from '@app/service-kit';
import { allowOrigin } from '../http/cors.js';
import { decodedPath } from './authenticate.js';
import type { OperationMatcher } from './operation-matcher.js';
import type { PublishableLimit } from './publishable-limit.js';

/** Every operation the table rules on is under `/api/`; other public paths (`/media/…`) are not operations of a key. */
const TABLE_PREFIX = '/api/';

function originListed(allowed: readonly string[] | null, origin: string): boolean {
  const wanted = origin.toLowerCase();
  return (allowed ?? []).some((entry) => entry === ANY_ORIGIN || entry.toLowerCase() === wanted);
}

/**
 * onRequest, after authentication: what a key's kind may do (API.md "Keys"), before anything is proxied. A
 * publishable key is used only from its allowed origins (a request without `Origin`, from a server, is served) and
 * answered CORS for them, counted per key and IP; then the request's operation (by the table's path templates) is
 * judged by `keyRefusal`, the same function each service judges it with again.
 */
export function keyKindHook(deps: { matcher: OperationMatcher; publishableLimit: PublishableLimit }) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = request.apiKey;
    if (!key || key.type === 'secret') return;
    if (key.type === 'publishable') {
      const origin = request.headers.origin;
      if (origin !== undefined) {
        if (!originListed(key.allowedOrigins, origin)) throw new AppError('ORIGIN_NOT_ALLOWED', KEY_REFUSALS.origin);
        // Before any refusal below, so that the page can read why it was refused.
        allowOrigin(reply, origin);
      }
      await deps.publishableLimit.count(request, reply);
    }
    const path = decodedPath(request.url);
    if (!path.startsWith(TABLE_PREFIX)) return;
    const operationId = deps.matcher.operationOf(request.method, path);
    const refusal = keyRefusal({ keyType: key.type, scopes: key.scopes ?? undefined }, operationId);
    if (refusal !== null) throw new AppError('FORBIDDEN', refusal);
  };
}
