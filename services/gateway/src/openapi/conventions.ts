import { z } from 'zod';
import { errorBodyWith, errorDetailSchema, type ErrorCode } from '@app/contracts';

/*
 * What the gateway adds to every operation of the merged document: the answers it gives itself (the key check,
 * the body limit, the rate limit, an upstream that did not answer), the headers every response carries, and
 * the `Idempotency-Key` replay header of creating operations. One error response per status lists every code
 * the operation can answer with there, the service's and the gateway's.
 */

type Json = Record<string, unknown>;
interface Operation {
  requestBody?: Json;
  responses?: Record<string, Json>;
}
interface Components {
  schemas?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  responses?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const SUCCESS: Partial<Record<string, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: the work continues in the background',
  304: 'Not Modified',
};

/** Response headers, referenced from each response as `#/components/headers/<name>`. */
const RESPONSE_HEADERS = {
  RequestId: {
    description: 'The request id: the `x-request-id` the request carried, else a generated one. Every service logs it.',
    schema: { type: 'string', examples: ['5f0c6f7e-2b8e-4d7a-9a51-0b0d3f1f6c1e'] },
  },
  RateLimitLimit: { description: 'Requests allowed per window for this key (per IP without a key).', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window starts afresh.', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before sending the request again.', schema: { type: 'integer' } },
  IdempotentReplayed: {
    description: "`true` when this is the stored first response to the request's `Idempotency-Key` (nothing new was created).",
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

/**
 * Response headers that services document on their answers (the kit's route conventions), shared under a name:
 * `etag` on the GET and PATCH of one record and on a GET's 304. The first service's description is the component.
 */
const SERVICE_HEADERS: Partial<Record<string, string>> = { etag: 'ETag' };

const header = (name: keyof typeof RESPONSE_HEADERS | 'ETag') => ({ $ref: `#/components/headers/${name}` });
const EVERY_RESPONSE = {
  'x-request-id': header('RequestId'),
  'x-ratelimit-limit': header('RateLimitLimit'),
  'x-ratelimit-remaining': header('RateLimitRemaining'),
  'x-ratelimit-reset': header('RateLimitReset'),
};

function codesIn(response: Json | undefined): ErrorCode[] {
  const content = response?.content as { 'application/json'?: { schema?: { properties?: { code?: { enum?: ErrorCode[] } } } } } | undefined;
  return content?.['application/json']?.schema?.properties?.code?.enum ?? [];
}

/** `{path, message}` of a validation error's `details`, shared by every error response. */
const ERROR_DETAIL_SCHEMA = z.toJSONSchema(errorDetailSchema, { target: 'draft-2020-12' });
delete ERROR_DETAIL_SCHEMA.$schema;

/** An error response allowing `codes`, described by what each means, with the headers of its status. */
function errorResponse(codes: ErrorCode[], headers: Json): Json {
  const { description, $schema: _dialect, ...schema } = z.toJSONSchema(errorBodyWith(codes), { target: 'draft-2020-12' });
  (schema.properties as { details: Json }).details = { type: 'array', items: { $ref: '#/components/schemas/ErrorDetail' } };
  return { description, headers, content: { 'application/json': { schema } } };
}

/** `NOT_FOUND` → `NotFound`: the name of a shared response for one code. */
const responseName = (code: ErrorCode) =>
  code.toLowerCase().replace(/(^|_)(\w)/g, (_match, _sep: string, letter: string) => letter.toUpperCase());

/** A success response's own headers (a service's ETag), each shared header as its component's reference. */
function serviceHeaders(response: Json, headerComponents: Record<string, unknown>): Json {
  const own = (response.headers ?? {}) as Json;
  return Object.fromEntries(
    Object.entries(own).map(([name, value]) => {
      const component = SERVICE_HEADERS[name.toLowerCase()];
      if (component === undefined) return [name, value];
      headerComponents[component] ??= value;
      return [name, header(component as 'ETag')];
    }),
  );
}

function completeOperation(
  method: (typeof METHODS)[number],
  operation: Operation,
  shared: Record<string, Json>,
  headerComponents: Record<string, unknown>,
): void {
  const responses = operation.responses ?? {};
  const added: Partial<Record<string, ErrorCode[]>> = {
    401: ['UNAUTHORIZED'], // public operations too: a key, if sent, is checked
    429: ['RATE_LIMITED'],
    503: ['UPSTREAM_UNAVAILABLE'],
    ...(operation.requestBody ? { 413: ['PAYLOAD_TOO_LARGE'] } : {}),
  };
  const statuses = [...new Set([...Object.keys(responses), ...Object.keys(added)])].sort();
  operation.responses = Object.fromEntries(
    statuses.map((status) => {
      const headers: Json = { ...EVERY_RESPONSE };
      if (status === '429' || status === '503') headers['retry-after'] = header('RetryAfter');
      if (method === 'post' && status === '201') headers['idempotent-replayed'] = header('IdempotentReplayed');
      if (Number(status) < 400) {
        const response = responses[status]!;
        const description = response.description === 'Default Response' ? SUCCESS[status] : response.description;
        return [
          status,
          { ...response, description: description ?? 'Success', headers: { ...serviceHeaders(response, headerComponents), ...headers } },
        ];
      }
      const codes = [...new Set([...codesIn(responses[status]), ...(added[status] ?? [])])];
      if (codes.length > 1) return [status, errorResponse(codes, headers)];
      // A response of one code (401, 429, 503 on every operation, most 404s) is written once and referred to.
      const name = responseName(codes[0]!);
      shared[name] ??= errorResponse(codes, headers);
      return [status, { $ref: `#/components/responses/${name}` }];
    }),
  );
}

/**
 * Gives each request body the first example of its schema as the media type's `example`: Swagger UI's "Try it
 * out" fills the body from that, not from a 3.1 schema's `examples` (it would make one up from the patterns).
 */
function exampleBody(operation: Operation, schemas: Record<string, unknown>): void {
  const content = (operation.requestBody?.content ?? {}) as Record<string, { schema?: { $ref?: string }; example?: unknown }>;
  for (const media of Object.values(content)) {
    const name = media.schema?.$ref?.split('/').pop();
    const example = name ? (schemas[name] as { examples?: unknown[] } | undefined)?.examples?.[0] : undefined;
    if (example !== undefined) media.example = example;
  }
}

/** Adds the gateway's responses and headers to every operation, and the body examples "Try it out" uses. */
export function applyGatewayConventions(document: { paths: Record<string, unknown>; components: Components }): void {
  const schemas = (document.components.schemas ??= {});
  const shared: Record<string, Json> = {};
  const headerComponents: Record<string, unknown> = {};
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Partial<Record<(typeof METHODS)[number], Operation>>)[method];
      if (!operation) continue;
      completeOperation(method, operation, shared, headerComponents);
      exampleBody(operation, schemas);
    }
  }
  schemas.ErrorDetail = ERROR_DETAIL_SCHEMA;
  document.components.headers = { ...RESPONSE_HEADERS, ...headerComponents };
  document.components.responses = Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}
