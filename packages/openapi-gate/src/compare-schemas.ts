import { report, subject, type Walk } from './breaking-change.ts';
import { compareConstraints } from './constraints.ts';
import { arrayOf, isObject, objectOf, type JsonObject } from './json.ts';
import { allows, describeTypes, enumOf, shapeOf, typesOf, type Variant } from './schema-shape.ts';

/**
 * Compares what a client sends (request side: the new schema must accept all the old one did) or reads
 * (response side: the new schema must not return what the old one never did, nor drop a field), following `$ref`s.
 */
export function compareSchemas(before: unknown, after: unknown, walk: Walk): void {
  const old = shapeOf(walk.before, before);
  const now = shapeOf(walk.after, after);
  if (walk.side === 'request' && old.nullable && !now.nullable)
    report(walk, 'type-narrowed', `${subject(walk)} no longer accepts null`, 'type');
  if (walk.side === 'response' && !old.nullable && now.nullable) report(walk, 'type-widened', `${subject(walk)} may now be null`, 'type');
  for (const [oldVariant, newVariant] of pairVariants(old.variants, now.variants, walk)) compareVariant(oldVariant, newVariant, walk);
}

/** Alternatives (`anyOf`/`oneOf` branches) paired by their types, then in order; the unpaired ones are reported. */
function pairVariants(before: Variant[], after: Variant[], walk: Walk): [Variant, Variant][] {
  const pairs: [Variant, Variant][] = [];
  const unpaired: Variant[] = [];
  const rest = [...after];
  for (const variant of before) {
    const index = rest.findIndex((candidate) => typeKey(candidate) === typeKey(variant));
    const [match] = index === -1 ? [] : rest.splice(index, 1);
    if (match) pairs.push([variant, match]);
    else unpaired.push(variant);
  }
  const count = Math.min(unpaired.length, rest.length);
  unpaired.slice(0, count).forEach((variant, index) => {
    const match = rest[index];
    if (match) pairs.push([variant, match]);
  });
  const lost = unpaired.slice(count).map(typeKey);
  const gained = rest.slice(count).map(typeKey);
  if (walk.side === 'request' && lost.length > 0) report(walk, 'type-narrowed', `${subject(walk)} no longer accepts ${lost.join(' or ')}`);
  if (walk.side === 'response' && gained.length > 0)
    report(walk, 'type-widened', `${subject(walk)} may now also be ${gained.join(' or ')}`);
  return pairs;
}

function compareVariant(before: Variant, after: Variant, walk: Walk): void {
  const pair = `${before.ref ?? ''} ${after.ref ?? ''}`;
  if (pair !== ' ' && walk.refs.has(pair)) return; // a recursive schema: this pair is being compared further up
  const component = after.ref ?? before.ref ?? walk.component;
  const inner: Walk = { ...walk, refs: new Set([...walk.refs, pair]), ...(component === undefined ? {} : { component }) };
  compareTypes(before.schema, after.schema, inner);
  compareEnums(before.schema, after.schema, inner);
  // A value of another type is reported once, as such: its bounds have nothing to compare with.
  if (walk.side === 'request' && sharesType(before, after)) compareConstraints(before.schema, after.schema, inner);
  compareProperties(before.schema, after.schema, inner);
  const [old, now] = [before.schema, after.schema];
  if (isObject(old.items) && isObject(now.items)) compareSchemas(old.items, now.items, child(inner, ['items'], `${inner.field}[]`));
  if (isObject(old.additionalProperties) && isObject(now.additionalProperties)) {
    compareSchemas(old.additionalProperties, now.additionalProperties, child(inner, ['additionalProperties'], `${inner.field}.*`));
  }
}

function compareTypes(before: JsonObject, after: JsonObject, walk: Walk): void {
  const old = typesOf(before);
  const now = typesOf(after);
  const change = `type ${describeTypes(old)} → ${describeTypes(now)}`;
  if (walk.side === 'request') {
    const lost = old === undefined ? (now === undefined ? [] : ['other types']) : [...old].filter((type) => !allows(now, type));
    if (lost.length > 0) report(walk, 'type-narrowed', `${subject(walk)} no longer accepts ${lost.join(' or ')} (${change})`, 'type');
  } else {
    const gained = now === undefined ? (old === undefined ? [] : ['any type']) : [...now].filter((type) => !allows(old, type));
    if (gained.length > 0) report(walk, 'type-widened', `${subject(walk)} may now be ${gained.join(' or ')} (${change})`, 'type');
  }
}

/** Request: an enum added or a value removed. Response: a value added or the enum dropped (strict clients reject unknown values). */
function compareEnums(before: JsonObject, after: JsonObject, walk: Walk): void {
  const old = enumOf(before);
  const now = enumOf(after);
  const at = 'const' in after ? 'const' : 'enum';
  if (walk.side === 'request' && now !== undefined) {
    const lost = old?.filter((value) => !now.includes(value));
    if (lost === undefined) report(walk, 'enum-narrowed', `${subject(walk)} now only accepts ${now.join(', ')}`, at);
    else if (lost.length > 0) report(walk, 'enum-narrowed', `${subject(walk)} no longer accepts ${lost.join(', ')}`, at);
  }
  if (walk.side === 'response' && old !== undefined) {
    const gained = now?.filter((value) => !old.includes(value));
    if (gained === undefined) report(walk, 'enum-widened', `${subject(walk)} is no longer limited to ${old.join(', ')}`);
    else if (gained.length > 0) report(walk, 'enum-widened', `${subject(walk)} may now be ${gained.join(', ')} (new enum value)`, at);
  }
}

function compareProperties(before: JsonObject, after: JsonObject, walk: Walk): void {
  const oldProperties = objectOf(before.properties);
  const newProperties = objectOf(after.properties);
  const oldRequired = new Set(arrayOf(before.required));
  const newRequired = new Set(arrayOf(after.required));
  for (const [name, schema] of Object.entries(oldProperties)) {
    const field = property(walk, name);
    if (!(name in newProperties)) {
      if (walk.side === 'response') report(field, 'response-field-removed', `${subject(field)} was removed`);
      else if (after.additionalProperties === false || after.unevaluatedProperties === false) {
        report(field, 'request-field-removed', `${subject(field)} is no longer accepted (the object takes no other fields)`);
      }
      continue;
    }
    if (walk.side === 'response' && oldRequired.has(name) && !newRequired.has(name)) {
      report(field, 'response-field-optional', `${subject(field)} may now be absent (no longer required)`);
    }
    compareSchemas(schema, newProperties[name], field);
  }
  if (walk.side !== 'request') return;
  for (const name of newRequired) {
    if (typeof name !== 'string' || oldRequired.has(name)) continue;
    const field = property(walk, name);
    report(field, 'request-field-required', name in oldProperties ? `${subject(field)} is now required` : `new required ${subject(field)}`);
  }
}

function property(walk: Walk, name: string): Walk {
  return child(walk, ['properties', name], walk.field ? `${walk.field}.${name}` : name);
}

function child(walk: Walk, segments: string[], field: string): Walk {
  return { ...walk, segments: [...walk.segments, ...segments], field };
}

function sharesType(before: Variant, after: Variant): boolean {
  const old = typesOf(before.schema);
  const now = typesOf(after.schema);
  return old === undefined || now === undefined || [...old].some((type) => allows(now, type));
}

function typeKey(variant: Variant): string {
  return describeTypes(typesOf(variant.schema));
}
