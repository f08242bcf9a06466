import type { Middleware } from 'openapi-fetch';

/**
 * Gives every creating POST an `Idempotency-Key` (a random UUID) unless the caller set one. It runs once per call,
 * above the retrying fetch, so every retry of the call resends the same key and the server creates at most once.
 */
export function idempotencyKeys(creatingPaths: ReadonlySet<string>, newKey: () => string = () => crypto.randomUUID()): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (request.method !== 'POST' || !creatingPaths.has(schemaPath) || request.headers.has('idempotency-key')) return undefined;
      request.headers.set('idempotency-key', newKey());
      return request;
    },
  };
}
