import { arrayOf, dereference, isObject, objectOf, type JsonObject } from './json.ts';

/** One alternative of a schema, with the component it came from when reached through a `$ref`. */
export interface Variant {
  schema: JsonObject;
  ref?: string;
}

/**
 * A schema as "null allowed or not" plus its non-null alternatives. `type: ['string', 'null']`,
 * `anyOf: [{ type: 'string' }, { type: 'null' }]` and a `$ref` to either read the same, so moving a schema
 * into components or rewriting a nullable is not a change.
 */
export interface Shape {
  nullable: boolean;
  variants: Variant[];
}

export function shapeOf(document: unknown, value: unknown): Shape {
  const { value: resolved, ref } = dereference(document, value);
  const schema = mergeAllOf(document, resolved);
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives) {
    const shapes = alternatives.map((alternative) => shapeOf(document, alternative));
    const variants = shapes.flatMap((shape) => shape.variants).map((variant) => (variant.ref || !ref ? variant : { ...variant, ref }));
    return { nullable: shapes.some((shape) => shape.nullable), variants };
  }
  const types = typeList(schema.type);
  const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
  const nullable = types.includes('null') || schema.const === null || (enumValues?.includes(null) ?? false);
  if (!nullable) return { nullable, variants: [withRef(schema, ref)] };
  const rest = types.filter((type) => type !== 'null');
  if (types.length > 0 && rest.length === 0) return { nullable, variants: [] };
  const nonNull: JsonObject = { ...schema };
  if (rest.length > 0) nonNull.type = rest.length === 1 ? rest[0] : rest;
  if (enumValues) nonNull.enum = enumValues.filter((entry) => entry !== null);
  if (schema.const === null) delete nonNull.const;
  return { nullable, variants: [withRef(nonNull, ref)] };
}

/** The non-null JSON types a variant allows; undefined when it does not restrict them. */
export function typesOf(schema: JsonObject): Set<string> | undefined {
  const types = typeList(schema.type).filter((type) => type !== 'null');
  if (types.length > 0) return new Set(types);
  const values = enumOf(schema);
  return values ? new Set(values.map((value) => jsonType(JSON.parse(value)))) : undefined;
}

/** Whether `type` is allowed by `types` (an integer is a number). */
export function allows(types: Set<string> | undefined, type: string): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

export function describeTypes(types: Set<string> | undefined): string {
  return types === undefined ? 'any type' : [...types].join(' | ');
}

/** The allowed values (as JSON text, so objects compare by content), from `enum` or `const`; undefined when open. */
export function enumOf(schema: JsonObject): string[] | undefined {
  if ('const' in schema) return [JSON.stringify(schema.const)];
  return Array.isArray(schema.enum) ? schema.enum.map((value) => JSON.stringify(value)) : undefined;
}

function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  return arrayOf(type).filter((entry): entry is string => typeof entry === 'string');
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) return 'object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function withRef(schema: JsonObject, ref: string | undefined): Variant {
  return ref === undefined ? { schema } : { schema, ref };
}

/** `allOf` members folded into the schema: their properties and required fields add up. */
function mergeAllOf(document: unknown, schema: JsonObject): JsonObject {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...merged } = schema;
  for (const member of arrayOf(allOf).map((entry) => mergeAllOf(document, dereference(document, entry).value))) {
    for (const [key, value] of Object.entries(member)) {
      if (key === 'properties') merged.properties = { ...objectOf(merged.properties), ...objectOf(value) };
      else if (key === 'required') merged.required = [...arrayOf(merged.required), ...arrayOf(value)];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}
