/** Small OpenAPI 3.1 documents for the tests: each test builds the two it compares. */
export function apiDocument(parts: { paths?: Record<string, unknown>; schemas?: Record<string, unknown>; version?: string }) {
  return {
    openapi: '3.1.0',
    info: { title: 'Fixture API', version: parts.version ?? '1.0.0' },
    paths: parts.paths ?? {},
    components: { schemas: parts.schemas ?? {} },
  };
}

/** `POST /items` taking `body` (JSON unless said) and answering 201 with `response`. */
export function postItems(
  body: unknown,
  options: { response?: unknown; schemas?: Record<string, unknown>; required?: boolean; mediaType?: string } = {},
) {
  const { response = { type: 'object' }, schemas = {}, required = true, mediaType = 'application/json' } = options;
  return apiDocument({
    paths: {
      '/items': {
        post: {
          requestBody: { required, content: { [mediaType]: { schema: body } } },
          responses: { '201': { description: 'Created', content: { 'application/json': { schema: response } } } },
        },
      },
    },
    schemas,
  });
}

/** `GET /items` with `parameters`, answering 200 with `response`. */
export function getItems(response: unknown, parameters: unknown[] = [], schemas: Record<string, unknown> = {}) {
  return apiDocument({
    paths: {
      '/items': { get: { parameters, responses: { '200': { description: 'OK', content: { 'application/json': { schema: response } } } } } },
    },
    schemas,
  });
}

/** A closed object schema, as zod writes them. */
export function object(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false };
}
