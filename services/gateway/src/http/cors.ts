import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodedPath, requiresApiKey } from '../auth/authenticate.js';
import type { OperationMatcher } from '../auth/operation-matcher.js';

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

/** A browser's preflight (OPTIONS asking for the method it means to send) of one of the public operations. */
function isPublicPreflight(request: FastifyRequest, path: string, operations: OperationMatcher): boolean {
  const asked = request.headers['access-control-request-method'];
  if (request.method !== 'OPTIONS' || typeof asked !== 'string') return false;
  const method = asked.toUpperCase() === 'HEAD' ? 'GET' : asked.toUpperCase();
  return operations.publicMethodsOf(path).some((allowed) => allowed === method);
}

/**
 * The CORS answer of a publishable key's request from one of its allowed origins (auth/key-kind.ts decides that,
 * after authentication, which the plugin's hook runs before): the origin echoed, never `*`, since the answer
 * depends on it.
 */
export function allowOrigin(reply: FastifyReply, origin: string): void {
  void reply.header('access-control-allow-origin', origin);
  void reply.header('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
  const vary = reply.getHeader('vary');
  const varied = typeof vary === 'string' ? vary.split(',').map((name) => name.trim().toLowerCase()) : [];
  if (!varied.includes('origin')) void reply.header('vary', varied.length > 0 ? `${String(vary)}, Origin` : 'Origin');
}

/**
 * CORS as API.md says: the public slots are readable from the origins of `CORS_ORIGINS` (`*`, the default, is any
 * origin); `/api/v1/*` answers CORS only to an origin listed there by name, since secret keys do not belong in
 * browsers, except a publishable key's public operations: any origin's preflight is answered for them, and the
 * request from one of the key's allowed origins gets its CORS headers once the key is known (allowOrigin). Everything
 * else sends no CORS headers. Registered before authentication: its hook answers a preflight
 * (204) before a key is asked for, as browsers send none with it.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[], operations: OperationMatcher): Promise<void> {
  const anyOrigin = origins.includes('*');
  const listed = new Set(origins.filter((origin) => origin !== '*'));
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) => {
      const path = decodedPath(request.url); // as authentication judges it: `/%61pi/…` is `/api/…`
      const origin = request.headers.origin;
      const common = { allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, maxAge: 600, strictPreflight: false };
      const slotsOrigin = anyOrigin ? '*' : origin !== undefined && listed.has(origin) ? origin : false;
      if (path === PUBLIC_SLOTS && slotsOrigin !== false) {
        callback(null, { ...common, methods: ['GET', 'HEAD'], origin: slotsOrigin });
      } else if (path === PUBLIC_SLOTS && !(origin !== undefined && isPublicPreflight(request, path, operations))) {
        // Outside CORS_ORIGINS the slots answer no CORS, but a publishable key's preflight (next branch below).
        callback(null, NO_CORS);
      } else if (requiresApiKey(path) && origin !== undefined && listed.has(origin)) {
        callback(null, { ...common, methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], origin });
      } else if (origin !== undefined && isPublicPreflight(request, path, operations)) {
        // A publishable key's public operations: a preflight carries no key, so any origin is answered (echoed);
        // the request that follows is judged with its key's allowed origins (auth/key-kind.ts).
        const methods = operations.publicMethodsOf(path);
        callback(null, { ...common, methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods, origin });
      } else {
        callback(null, NO_CORS);
      }
    },
  });
}
