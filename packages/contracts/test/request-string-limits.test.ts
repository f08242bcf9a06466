import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * Every string a request can carry (bodies and query parameters) has a maximum length (API.md, Conventions, "Size and
 * text limits everywhere"). Read from the committed OpenAPI document, which npm test holds equal to what the
 * gateway serves, so a field added to any service's schema without a limit fails here.
 */

type Schema = Record<string, unknown>;
interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { in: string; name: string; schema?: Schema }[]; requestBody?: { content: Record<string, { schema?: Schema }> } }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

/** Formats whose values have a length of their own; `binary` is a file, bounded by the upload limit (413). */
const BOUNDED_FORMATS = new Set(['uuid', 'date-time', 'date', 'time', 'binary']);

/** An anchored pattern without `*`, `+` or `{n,}`: whatever matches it has a bounded length. */
function isBoundedPattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && pattern.startsWith('^') && pattern.endsWith('$') && !/(?<!\\)[*+]|\{\d+,\}/.test(pattern);
}

function isBoundedString(schema: Schema): boolean {
  return (
    typeof schema.maxLength === 'number' ||
    Array.isArray(schema.enum) ||
    'const' in schema ||
    BOUNDED_FORMATS.has(String(schema.format)) ||
    isBoundedPattern(schema.pattern)
  );
}

const CHILD_SCHEMAS = ['items', 'additionalProperties', 'propertyNames', 'not'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Where in `schema` a string without a bound is (`path` names it), following $refs into the document's components. */
function unboundedStrings(
  document: Pick<OpenApiDocument, 'components'>,
  schema: unknown,
  path: string,
  seen = new Set<string>(),
): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace('#/components/schemas/', '');
    if (seen.has(name)) return [];
    return unboundedStrings(document, document.components.schemas[name], path, new Set([...seen, name]));
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const found = types.includes('string') && !isBoundedString(node) ? [path] : [];
  for (const key of CHILD_SCHEMAS) found.push(...unboundedStrings(document, node[key], `${path}.${key === 'items' ? '[]' : key}`, seen));
  for (const key of CHILD_LISTS)
    if (Array.isArray(node[key])) for (const child of node[key]) found.push(...unboundedStrings(document, child, path, seen));
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const [name, child] of Object.entries(properties)) found.push(...unboundedStrings(document, child, `${path}.${name}`, seen));
  return found;
}

/** Every unbounded string of every request body and query parameter of `document`. */
function unboundedRequestStrings(document: OpenApiDocument): string[] {
  const found: string[] = [];
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const where = `${method.toUpperCase()} ${route}`;
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'query') found.push(...unboundedStrings(document, parameter.schema, `${where} ?${parameter.name}`));
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {}))
        found.push(...unboundedStrings(document, content.schema, `${where} (${type}) body`));
    }
  }
  return found;
}

const snapshot = JSON.parse(readFileSync(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;

describe('request strings of the API document', () => {
  it('when every body and query of the document is read, then each string has a maxLength or another bound', () => {
    expect(unboundedRequestStrings(snapshot)).toEqual([]);
  });

  it('when a body has a string without a bound (at any depth, through $refs), then it is found', () => {
    const document: OpenApiDocument = {
      components: {
        schemas: { Tag: { type: 'object', properties: { label: { type: 'string' }, code: { type: 'string', pattern: '^[a-z]+$' } } } },
      },
      paths: {
        '/things': {
          post: {
            parameters: [
              { in: 'query', name: 'q', schema: { type: 'string' } },
              { in: 'path', name: 'id', schema: { type: 'string' } },
            ],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      name: { type: 'string', maxLength: 10 },
                      color: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
                      kind: { type: 'string', enum: ['a'] },
                      tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
                      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
                      extra: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    expect(unboundedRequestStrings(document)).toEqual([
      'POST /things ?q',
      'POST /things (application/json) body.tags.[].label',
      'POST /things (application/json) body.tags.[].code',
      'POST /things (application/json) body.note',
      'POST /things (application/json) body.extra.propertyNames',
    ]);
  });
});
