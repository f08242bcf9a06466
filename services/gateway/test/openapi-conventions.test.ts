import { describe, expect, it } from 'vitest';
import { normalizeExamples, tidySchemas } from '../src/openapi/components.js';
import { applyGatewayConventions } from '../src/openapi/conventions.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const errorBody = (codes: string[]) => ({
  type: 'object',
  properties: { error: { type: 'string' }, code: { type: 'string', enum: codes } },
});

/** A service document as the zod type provider writes it: `XInput` twins, unused components, `example` on schemas. */
function serviceDocument() {
  return {
    paths: {
      '/api/v1/things': {
        post: {
          requestBody: json({ $ref: '#/components/schemas/CreateThingBodyInput' }),
          responses: {
            201: { description: 'Default Response', ...json({ $ref: '#/components/schemas/Thing' }) },
            409: json(errorBody(['SLUG_TAKEN'])),
          },
        },
        get: {
          parameters: [{ in: 'query', name: 'limit', schema: { type: 'integer', example: 50 } }],
          responses: {
            200: json({ type: 'array', items: { $ref: '#/components/schemas/Thing' } }),
            404: json(errorBody(['NOT_FOUND', 'MEDIA_NOT_FOUND'])),
          },
        },
      },
    },
    components: {
      schemas: {
        CreateThingBodyInput: { type: 'object', properties: { title: { type: 'string' } }, example: { title: 'A thing' } },
        CreateThingBody: { type: 'object', properties: { title: { type: 'string' } } },
        Thing: { type: 'object', properties: { part: { $ref: '#/components/schemas/Part' } } },
        ThingInput: { type: 'object' },
        Part: { type: 'object' },
      } as Record<string, unknown>,
    },
  };
}

function merged() {
  const document = serviceDocument();
  tidySchemas(document);
  normalizeExamples(document);
  applyGatewayConventions(document);
  return document as unknown as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody: { content: Record<string, { example?: unknown }> };
          parameters: { example?: unknown }[];
          responses: Record<string, Record<string, unknown>>;
        }
      >
    >;
    components: { schemas: Record<string, { examples?: unknown[] }>; responses: Record<string, unknown> };
  };
}

describe('the merged OpenAPI document', () => {
  it('when a service registers input twins and unused schemas, then each used schema appears once under its plain name', () => {
    const document = merged();
    expect(Object.keys(document.components.schemas).sort()).toEqual(['CreateThingBody', 'ErrorDetail', 'Part', 'Thing']);
    expect(document.paths['/api/v1/things']!.post!.requestBody.content['application/json']).toMatchObject({
      schema: { $ref: '#/components/schemas/CreateThingBody' },
    });
  });

  it('when a body schema has an example, then the media type carries it for "Try it out" and the schema has it as 3.1 examples', () => {
    const document = merged();
    expect(document.paths['/api/v1/things']!.post!.requestBody.content['application/json']!.example).toEqual({ title: 'A thing' });
    expect(document.components.schemas.CreateThingBody!.examples).toEqual([{ title: 'A thing' }]);
    expect(document.paths['/api/v1/things']!.get!.parameters[0]!.example).toBe(50);
  });

  it("when an operation is merged, then the gateway's own answers join the service's codes and every response has its headers", () => {
    const { post, get } = merged().paths['/api/v1/things']!;
    expect(Object.keys(post!.responses)).toEqual(['201', '401', '409', '413', '429', '503']);
    expect(Object.keys(get!.responses)).toEqual(['200', '401', '404', '429', '503']);
    expect(post!.responses['201']!.headers).toHaveProperty('idempotent-replayed');
    expect(post!.responses['201']!.description).toBe('Created');
    expect(get!.responses['200']!.headers).toHaveProperty('x-request-id');
    expect(get!.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
  });

  it('when a status has one code, then its response is shared with the Retry-After of 429 and 503; with several, the enum lists them all', () => {
    const document = merged();
    expect(document.components.responses.RateLimited).toMatchObject({
      headers: { 'retry-after': { $ref: '#/components/headers/RetryAfter' } },
    });
    expect(document.components.responses.UpstreamUnavailable).toMatchObject({ headers: { 'retry-after': expect.anything() } });
    expect(document.components.responses.Unauthorized).not.toHaveProperty('headers.retry-after');
    expect(document.paths['/api/v1/things']!.post!.responses['409']).toEqual({ $ref: '#/components/responses/SlugTaken' });
    expect(document.paths['/api/v1/things']!.get!.responses['404']).toMatchObject({
      content: { 'application/json': { schema: { properties: { code: { enum: ['MEDIA_NOT_FOUND', 'NOT_FOUND'] } } } } },
    });
  });
});

describe('the merged OpenAPI document of a conditional GET', () => {
  it("when a service documents its ETag on the 200 and the 304, then both keep it beside the gateway's headers, shared once", () => {
    const etag = { schema: { type: 'string' }, description: 'The record’s strong entity tag.' };
    const document = {
      paths: {
        '/api/v1/things/{id}': {
          get: {
            parameters: [{ in: 'header', name: 'if-none-match', schema: { type: 'string' } }],
            responses: {
              200: { description: 'Default Response', headers: { etag }, ...json({ type: 'object' }) },
              304: { description: 'Not Modified: no body.', headers: { etag } },
              404: json(errorBody(['NOT_FOUND'])),
            },
          },
        },
      },
      components: { schemas: {} as Record<string, unknown> } as { schemas: Record<string, unknown>; headers?: Record<string, unknown> },
    };
    applyGatewayConventions(document);
    const responses = document.paths['/api/v1/things/{id}'].get.responses as unknown as Record<
      string,
      { description: string; headers: object }
    >;
    for (const status of ['200', '304']) {
      expect(responses[status]!.headers).toMatchObject({
        etag: { $ref: '#/components/headers/ETag' },
        'x-request-id': { $ref: '#/components/headers/RequestId' },
      });
    }
    expect(responses['200']!.description).toBe('OK');
    expect(responses['304']!.description).toBe('Not Modified: no body.');
    expect(document.components.headers?.ETag).toEqual(etag);
  });
});
