import type { FastifyBaseLogger, RouteOptions } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { idempotencyHeadersSchema, withErrorCodes, type ErrorCode } from '@app/contracts';

type RouteSchema = NonNullable<RouteOptions['schema']> & { response?: Record<string, unknown>; hide?: boolean };

/** True for a route that creates something: a POST answering 201. These honour `Idempotency-Key`. */
export function isCreatingRoute(method: RouteOptions['method'], schema: RouteSchema | undefined): boolean {
  const methods = Array.isArray(method) ? method : [method];
  return methods.includes('POST') && schema?.response?.['201'] !== undefined;
}

/** True for a list route: its query takes a `cursor` (every list's does, through `listQuerySchema`). */
function takesCursor(querystring: unknown): boolean {
  const shape = (querystring as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null && 'cursor' in shape;
}

/** What every route of a kind can answer, besides what it decides itself (its route lists those). */
function conventionalCodes(options: RouteOptions, schema: RouteSchema): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (schema.querystring || schema.headers) codes.push('VALIDATION_ERROR');
  // A list: a cursor it did not make for these filters (ListPage).
  if (takesCursor(schema.querystring)) codes.push('CURSOR_INVALID');
  // Any body: malformed JSON or a wrong content type, and the body limit (the error handler's answers).
  if (schema.body) codes.push('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  // Idempotency-Key: a malformed key, the key used with another body, and a duplicate still waiting for the first.
  if (isCreatingRoute(options.method, schema)) codes.push('VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED', 'CONFLICT');
  return codes;
}

/**
 * Completes each documented route's schema with the conventions of API.md, in one place rather than in
 * every route: the errors that every route of its kind can answer, and the `Idempotency-Key` header of
 * creating routes (validated here, so a malformed key is a 400 everywhere).
 */
export function applyRouteConventions(options: RouteOptions): void {
  const schema = options.schema as RouteSchema | undefined;
  if (!schema || schema.hide || !schema.response) return;
  const headers = isCreatingRoute(options.method, schema) ? (schema.headers ?? idempotencyHeadersSchema) : schema.headers;
  options.schema = {
    ...schema,
    ...(headers ? { headers } : {}),
    response: withErrorCodes(schema.response, conventionalCodes(options, schema)),
  };
}

/**
 * Serializes responses with their route's schema. An error body whose code the route does not document
 * is a mistake in the document, not in the answer: tests (`strict`) fail on it with a 500, production logs
 * it and sends the body as it is, so a client still gets its error.
 */
export function responseSerializerCompiler(strict: boolean, log: FastifyBaseLogger): FastifySerializerCompiler<unknown> {
  return (route) => {
    const serialize = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    if (strict || Number(route.httpStatus) < 400) return serialize;
    return (data) => {
      try {
        return serialize(data);
      } catch (error) {
        log.warn(
          { err: error, method: route.method, url: route.url, status: route.httpStatus },
          'error response not documented for this route',
        );
        return JSON.stringify(data);
      }
    };
  };
}
