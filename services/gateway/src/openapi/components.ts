/*
 * Tidies the merged document's schemas. The zod type provider names each registered schema twice, `X` for
 * responses and `XInput` for requests, whether or not both are used; consumers get each schema once, under its
 * plain name, and no component that nothing refers to. Examples are written `example` in the zod schemas (zod
 * drops a 3.1 `examples` from any schema that transforms its input) and become `examples` here.
 */

type Json = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';

function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) value.forEach((item) => walk(item, visit));
  else if (value !== null && typeof value === 'object') {
    visit(value as Json);
    Object.values(value).forEach((child) => walk(child, visit));
  }
}

function schemaRefsIn(value: unknown): string[] {
  const names: string[] = [];
  walk(value, (node) => {
    if (typeof node.$ref === 'string' && node.$ref.startsWith(SCHEMA_REF)) names.push(node.$ref.slice(SCHEMA_REF.length));
  });
  return names;
}

/** The schemas the paths use, directly or through other schemas. */
function reachableSchemas(paths: unknown, schemas: Record<string, unknown>): Set<string> {
  const reached = new Set<string>();
  const pending = schemaRefsIn(paths);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name) || !(name in schemas)) continue;
    reached.add(name);
    pending.push(...schemaRefsIn(schemas[name]));
  }
  return reached;
}

/** Drops unused schemas, then gives each `XInput` whose `X` is gone the plain name, rewriting every `$ref` to it. */
export function tidySchemas(document: { paths?: unknown; components?: { schemas?: Record<string, unknown> } }): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const reached = reachableSchemas(document.paths, schemas);
  const kept = Object.keys(schemas).filter((name) => reached.has(name));
  const renames = new Map(
    kept.filter((name) => name.endsWith('Input') && !reached.has(name.slice(0, -'Input'.length))).map((name) => [name, name.slice(0, -5)]),
  );
  document.components!.schemas = Object.fromEntries(
    kept.sort((a, b) => (renames.get(a) ?? a).localeCompare(renames.get(b) ?? b)).map((name) => [renames.get(name) ?? name, schemas[name]]),
  );
  walk(document, (node) => {
    if (typeof node.$ref !== 'string' || !node.$ref.startsWith(SCHEMA_REF)) return;
    const renamed = renames.get(node.$ref.slice(SCHEMA_REF.length));
    if (renamed) node.$ref = `${SCHEMA_REF}${renamed}`;
  });
}

/** Schema `example` → `examples: [example]`; a parameter's goes to the parameter too, where Swagger UI reads it. */
export function normalizeExamples(document: { paths?: unknown; components?: { schemas?: Record<string, unknown> } }): void {
  walk(document.paths, (node) => {
    const schema = node.schema as Json | undefined;
    if (typeof node.in === 'string' && schema && 'example' in schema) node.example ??= schema.example;
  });
  walk(document, (node) => {
    if (!('example' in node) || !('type' in node || 'properties' in node || '$ref' in node)) return;
    node.examples ??= [node.example];
    delete node.example;
  });
}
