import type { FastifyBaseLogger, RouteOptions } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyHeadersSchema, notModifiedResponseSchema, withErrorCodes, withEtagHeader, type ErrorCode } from '@app/contracts';

type RouteSchema = NonNullable<RouteOptions['schema']> & { response?: Record<string, unknown>; hide?: boolean };

/** True for a route that creates something: a POST answering 201. These honour `Idempotency-Key`. */
export function isCreatingRoute(method: RouteOptions['method'], schema: RouteSchema | undefined): boolean {
  const methods = Array.isArray(method) ? method : [method];
  return methods.includes('POST') && schema?.response?.['201'] !== undefined;
}

/**
 * Which conditional request a route of one record honours, by the header schema it declares (`@app/contracts`,
 * conditional-requests.ts): `If-None-Match` on a GET, `If-Match` on a PATCH or DELETE.
 */
function conditionalHeaderOf(schema: RouteSchema): 'if-none-match' | 'if-match' | undefined {
  const shape = schema.headers instanceof z.ZodObject ? (schema.headers.shape as Record<string, unknown>) : {};
  if ('if-match' in shape) return 'if-match';
  if ('if-none-match' in shape) return 'if-none-match';
  return undefined;
}

/** True when the route's header schema can refuse something: the conditional headers take any text. */
function validatesHeaders(schema: RouteSchema): boolean {
  if (!(schema.headers instanceof z.ZodObject)) return schema.headers !== undefined;
  return Object.keys(schema.headers.shape as Record<string, unknown>).some((name) => name !== 'if-match' && name !== 'if-none-match');
}

/** True for a list route: its query takes a `cursor` (every list's does, through `listQuerySchema`). */
function takesCursor(querystring: unknown): boolean {
  const shape = (querystring as { shape?: unknown } | undefined)?.shape;
  return typeof shape === 'object' && shape !== null && 'cursor' in shape;
}

/** What every route of a kind can answer, besides what it decides itself (its route lists those). */
function conventionalCodes(options: RouteOptions, schema: RouteSchema): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (schema.querystring || validatesHeaders(schema)) codes.push('VALIDATION_ERROR');
  // A list: a cursor it did not make for these filters (ListPage).
  if (takesCursor(schema.querystring)) codes.push('CURSOR_INVALID');
  // Any body: malformed JSON or a wrong content type, and the body limit (the error handler's answers).
  if (schema.body) codes.push('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  // Idempotency-Key: a malformed key, the key used with another body, and a duplicate still waiting for the first.
  if (isCreatingRoute(options.method, schema)) codes.push('VALIDATION_ERROR', 'IDEMPOTENCY_KEY_REUSED', 'CONFLICT');
  // If-Match: the record changed since the client read it (http/conditional-requests.ts).
  if (conditionalHeaderOf(schema) === 'if-match') codes.push('PRECONDITION_FAILED');
  return codes;
}

/**
 * The answers of a conditional route of one record: a GET's 200 and 304 and a PATCH's 200 carry the ETag
 * (`answerRecord`); a DELETE's answer shows no record, so it has none.
 */
function withConditionalAnswers(options: RouteOptions, schema: RouteSchema, response: Record<string, unknown>): Record<string, unknown> {
  const header = conditionalHeaderOf(schema);
  const methods = Array.isArray(options.method) ? options.method : [options.method];
  const tagged = header === 'if-none-match' || (header === 'if-match' && methods.includes('PATCH'));
  if (!tagged || !(response['200'] instanceof z.ZodType)) return response;
  return {
    ...response,
    200: withEtagHeader(response['200']),
    ...(header === 'if-none-match' ? { 304: notModifiedResponseSchema } : {}),
  };
}

/**
 * Completes each documented route's schema with the conventions of API.md, in one place rather than in
 * every route: the errors that every route of its kind can answer, the `Idempotency-Key` header of
 * creating routes (validated here, so a malformed key is a 400 everywhere), and the ETag, 304 and 412 of
 * routes that declare a conditional header.
 */
export function applyRouteConventions(options: RouteOptions): void {
  const schema = options.schema as RouteSchema | undefined;
  if (!schema || schema.hide || !schema.response) return;
  const headers = isCreatingRoute(options.method, schema) ? (schema.headers ?? idempotencyHeadersSchema) : schema.headers;
  options.schema = {
    ...schema,
    ...(headers ? { headers } : {}),
    response: withConditionalAnswers(options, schema, withErrorCodes(schema.response, conventionalCodes(options, schema))),
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
