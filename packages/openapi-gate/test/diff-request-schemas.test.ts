import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../src/diff-documents.ts';
import { object, postItems } from './documents.ts';

/** The breaking changes between two request bodies of `POST /items`. */
const requestChanges = (before: unknown, after: unknown) => diffDocuments(postItems(before), postItems(after));
const kinds = (before: unknown, after: unknown) => requestChanges(before, after).map((change) => change.kind);
const body = '/paths/~1items/post/requestBody/content/application~1json/schema';

describe('diffDocuments: request body fields', () => {
  it('when a new required field is added, then it is breaking, at the field', () => {
    const changes = requestChanges(
      object({ name: { type: 'string' } }),
      object({ name: { type: 'string' }, sku: { type: 'string' } }, ['sku']),
    );

    expect(changes).toEqual([
      {
        kind: 'request-field-required',
        location: 'POST /items, request body (application/json)',
        message: 'new required field `sku`',
        pointer: `${body}/properties/sku`,
      },
    ]);
  });

  it('when an optional nested field becomes required, then it is breaking, named by its path', () => {
    const attendee = (required: string[]) =>
      object({ attendee: object({ name: { type: 'string' }, phone: { type: 'string' } }, required) });

    const changes = requestChanges(attendee(['name']), attendee(['name', 'phone']));

    expect(changes).toMatchObject([
      {
        kind: 'request-field-required',
        message: 'field `attendee.phone` is now required',
        pointer: `${body}/properties/attendee/properties/phone`,
      },
    ]);
  });

  it('when an optional field is added or a required one becomes optional, then nothing is breaking', () => {
    expect(kinds(object({ name: { type: 'string' } }, ['name']), object({ name: { type: 'string' }, note: { type: 'string' } }))).toEqual(
      [],
    );
  });

  it('when a new optional object field has required fields of its own, then nothing is breaking (clients leave it out)', () => {
    const after = object({ name: { type: 'string' }, address: object({ city: { type: 'string' } }, ['city']) });

    expect(kinds(object({ name: { type: 'string' } }), after)).toEqual([]);
  });

  it('when a field is removed from a closed object, then it is breaking; from an open one, then not', () => {
    expect(kinds(object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } }))).toEqual([
      'request-field-removed',
    ]);
    const open = (properties: object) => ({ type: 'object', properties });
    expect(kinds(open({ a: { type: 'string' }, b: { type: 'string' } }), open({ a: { type: 'string' } }))).toEqual([]);
  });
});

describe('diffDocuments: request types and enums', () => {
  const field = (schema: object) => object({ value: schema });

  it.each([
    [
      'the type list shrinks',
      { type: ['string', 'integer'] },
      { type: 'string' },
      'field `value` no longer accepts integer (type string | integer → string)',
    ],
    ['string becomes integer', { type: 'string' }, { type: 'integer' }, 'field `value` no longer accepts string (type string → integer)'],
    ['number becomes integer', { type: 'number' }, { type: 'integer' }, 'field `value` no longer accepts number (type number → integer)'],
    ['any value becomes a string', {}, { type: 'string' }, 'field `value` no longer accepts other types (type any type → string)'],
  ])('when %s, then the type is narrowed', (_case, before, after, message) => {
    expect(requestChanges(field(before), field(after))).toMatchObject([
      { kind: 'type-narrowed', message, pointer: `${body}/properties/value/type` },
    ]);
  });

  it.each([
    ['type: [string, null]', { type: ['string', 'null'] }],
    ['anyOf with null', { anyOf: [{ type: 'string' }, { type: 'null' }] }],
  ])('when a nullable field written as %s stops accepting null, then it is narrowed', (_case, before) => {
    expect(requestChanges(field(before), field({ type: 'string' }))).toMatchObject([
      { kind: 'type-narrowed', message: 'field `value` no longer accepts null' },
    ]);
  });

  it.each([
    ['integer becomes number', { type: 'integer' }, { type: 'number' }],
    ['a field becomes nullable', { type: 'string' }, { type: ['string', 'null'] }],
    [
      'anyOf-null is rewritten as a type list',
      { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] },
      { type: ['null', 'string'], maxLength: 5 },
    ],
    ['an enum value is added', { type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] }],
    ['an enum is reordered', { type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['b', 'a'] }],
  ])('when %s, then nothing is breaking', (_case, before, after) => {
    expect(kinds(field(before), field(after))).toEqual([]);
  });

  it('when an enum value is removed, then the enum is narrowed, naming the value', () => {
    const changes = requestChanges(field({ type: 'string', enum: ['google', 'outlook'] }), field({ type: 'string', enum: ['google'] }));

    expect(changes).toMatchObject([
      { kind: 'enum-narrowed', message: 'field `value` no longer accepts "outlook"', pointer: `${body}/properties/value/enum` },
    ]);
  });

  it('when an enum restriction is added, then the enum is narrowed', () => {
    expect(kinds(field({ type: 'string' }), field({ type: 'string', enum: ['a'] }))).toEqual(['enum-narrowed']);
  });
});

describe('diffDocuments: request constraints', () => {
  const field = (schema: object) => object({ value: schema });

  it.each([
    ['maxLength is lowered', { type: 'string', maxLength: 100 }, { type: 'string', maxLength: 50 }, 'maxLength'],
    ['minLength is raised', { type: 'string', minLength: 1 }, { type: 'string', minLength: 3 }, 'minLength'],
    ['maximum is lowered', { type: 'integer', maximum: 100 }, { type: 'integer', maximum: 10 }, 'maximum'],
    ['minimum is raised', { type: 'integer', minimum: 0 }, { type: 'integer', minimum: 1 }, 'minimum'],
    ['a maximum is added', { type: 'integer' }, { type: 'integer', maximum: 10 }, 'maximum'],
    ['a pattern is added', { type: 'string' }, { type: 'string', pattern: '^[a-z]+$' }, 'pattern'],
    ['a format is added', { type: 'string' }, { type: 'string', format: 'email' }, 'format'],
    ['maxItems is lowered', { type: 'array', maxItems: 10 }, { type: 'array', maxItems: 5 }, 'maxItems'],
  ])('when %s, then a constraint is tightened', (_case, before, after, keyword) => {
    expect(requestChanges(field(before), field(after))).toMatchObject([
      { kind: 'constraint-tightened', pointer: `${body}/properties/value/${keyword}` },
    ]);
  });

  it('when a maxLength is lowered, then the message says from what to what', () => {
    const [change] = requestChanges(field({ type: 'string', maxLength: 100 }), field({ type: 'string', maxLength: 50 }));

    expect(change?.message).toBe('field `value` accepts less: maxLength 100 → 50');
  });

  it.each([
    ['maxLength is raised', { type: 'string', maxLength: 50 }, { type: 'string', maxLength: 100 }],
    ['minimum is lowered', { type: 'integer', minimum: 1 }, { type: 'integer', minimum: 0 }],
    ['a pattern is removed', { type: 'string', pattern: '^a' }, { type: 'string' }],
  ])('when %s, then nothing is breaking', (_case, before, after) => {
    expect(kinds(field(before), field(after))).toEqual([]);
  });

  it('when the type changes, then only the type is reported, not the new type’s bounds', () => {
    expect(kinds(field({ type: 'string', pattern: '^\\d+$' }), field({ type: 'integer', minimum: 0, maximum: 100 }))).toEqual([
      'type-narrowed',
    ]);
  });

  it('when array items narrow, then the items are compared too', () => {
    const tags = (items: object) => object({ tags: { type: 'array', items } });

    expect(requestChanges(tags({ type: 'string' }), tags({ type: 'string', maxLength: 10 }))).toMatchObject([
      {
        kind: 'constraint-tightened',
        message: 'field `tags[]` accepts less: maxLength 10 added',
        pointer: `${body}/properties/tags/items/maxLength`,
      },
    ]);
  });
});
