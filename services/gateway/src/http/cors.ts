import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodedPath, requiresApiKey } from '../auth/authenticate.js';

/** The one public path a booking page on another origin calls (API.md, Addresses). */
const PUBLIC_SLOTS = '/api/bookings/slots';

/** Headers a browser may send, and read back, on a cross-origin request. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'if-match', 'if-none-match', 'x-request-id'];
const EXPOSED_HEADERS = [
  'etag',
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
];

const NO_CORS: FastifyCorsOptions = { origin: false };

/**
 * CORS as API.md says: the public slots are readable from the origins of `CORS_ORIGINS` (`*`, the default, is any
 * origin); `/api/v1/*` answers CORS only to an origin listed there by name, since secret keys do not belong in
 * browsers. Everything else sends no CORS headers. Registered before authentication: its hook answers a preflight
 * (204) before a key is asked for, as browsers send none with it.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  const anyOrigin = origins.includes('*');
  const listed = new Set(origins.filter((origin) => origin !== '*'));
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) => {
      const path = decodedPath(request.url); // as authentication judges it: `/%61pi/…` is `/api/…`
      const origin = request.headers.origin;
      const common = { allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, maxAge: 600, strictPreflight: false };
      if (path === PUBLIC_SLOTS) {
        callback(null, {
          ...common,
          methods: ['GET', 'HEAD'],
          origin: anyOrigin ? '*' : origin !== undefined && listed.has(origin) ? origin : false,
        });
      } else if (requiresApiKey(path) && origin !== undefined && listed.has(origin)) {
        callback(null, { ...common, methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], origin });
      } else {
        callback(null, NO_CORS);
      }
    },
  });
}
