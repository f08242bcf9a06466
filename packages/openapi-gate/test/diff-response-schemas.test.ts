import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../src/diff-documents.ts';
import { getItems, object } from './documents.ts';

const list = (item: unknown) => object({ data: { type: 'array', items: item } }, ['data']);
const booking = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => object(properties, required);
const response = '/paths/~1items/get/responses/200/content/application~1json/schema';

/** The breaking changes between two `Booking` components, read by `GET /items` as a list through a $ref. */
const bookingChanges = (before: unknown, after: unknown) =>
  diffDocuments(
    getItems(list({ $ref: '#/components/schemas/Booking' }), [], { Booking: before }),
    getItems(list({ $ref: '#/components/schemas/Booking' }), [], { Booking: after }),
  );
const kinds = (before: unknown, after: unknown) => bookingChanges(before, after).map((change) => change.kind);

describe('diffDocuments: response fields, through $refs', () => {
  it('when a field of a referenced component is removed, then it is breaking, at the field with the component named', () => {
    const changes = bookingChanges(booking({ id: { type: 'string' }, title: { type: 'string' } }), booking({ id: { type: 'string' } }));

    expect(changes).toEqual([
      {
        kind: 'response-field-removed',
        location: 'GET /items, response 200 (application/json)',
        message: 'field `data[].title` was removed',
        pointer: `${response}/properties/data/items/properties/title`,
        component: '#/components/schemas/Booking',
      },
    ]);
  });

  it('when a deeply nested field is removed, then it is found recursively', () => {
    const attendee = (properties: Record<string, unknown>) => booking({ attendee: booking(properties) });

    const changes = bookingChanges(
      attendee({ name: { type: 'string' }, email: { type: 'string' } }),
      attendee({ name: { type: 'string' } }),
    );

    expect(changes).toMatchObject([{ kind: 'response-field-removed', message: 'field `data[].attendee.email` was removed' }]);
  });

  it('when a required field becomes optional, then clients may miss it: breaking', () => {
    const properties = { id: { type: 'string' }, title: { type: 'string' } };

    expect(kinds(booking(properties), booking(properties, ['id']))).toEqual(['response-field-optional']);
  });

  it('when a field is added, then nothing is breaking', () => {
    expect(kinds(booking({ id: { type: 'string' } }), booking({ id: { type: 'string' }, note: { type: 'string' } }))).toEqual([]);
  });

  it('when an inline schema moves into components unchanged, then nothing is breaking', () => {
    const schema = booking({ id: { type: 'string' }, status: { type: 'string', enum: ['PENDING', 'CONFIRMED'] } });
    const before = getItems(list(schema));
    const after = getItems(list({ $ref: '#/components/schemas/Booking' }), [], { Booking: schema });

    expect(diffDocuments(before, after)).toEqual([]);
  });

  it('when a recursive schema is compared, then it terminates and still finds the change', () => {
    const node = (properties: Record<string, unknown>) => ({
      type: 'object',
      properties: { ...properties, children: { type: 'array', items: { $ref: '#/components/schemas/Booking' } } },
    });

    expect(kinds(node({ id: { type: 'string' } }), node({}))).toEqual(['response-field-removed']);
  });

  it('when allOf members are folded, then a field removed from a member is found', () => {
    const before = { allOf: [{ $ref: '#/components/schemas/Base' }, booking({ title: { type: 'string' } })] };
    const base = (properties: Record<string, unknown>) => booking(properties);
    const changes = diffDocuments(
      getItems(list(before), [], { Base: base({ id: { type: 'string' }, created_at: { type: 'string' } }) }),
      getItems(list(before), [], { Base: base({ id: { type: 'string' } }) }),
    );

    expect(changes).toMatchObject([{ kind: 'response-field-removed', message: 'field `data[].created_at` was removed' }]);
  });
});

describe('diffDocuments: response types and enums', () => {
  const status = (schema: object) => booking({ status: schema });

  it('when a response enum gains a value, then strict clients may reject it: breaking (our choice)', () => {
    const changes = bookingChanges(status({ type: 'string', enum: ['PENDING'] }), status({ type: 'string', enum: ['PENDING', 'NO_SHOW'] }));

    expect(changes).toMatchObject([{ kind: 'enum-widened', message: 'field `data[].status` may now be "NO_SHOW" (new enum value)' }]);
  });

  it('when a response enum loses a value, then clients simply never see it: nothing is breaking', () => {
    expect(kinds(status({ type: 'string', enum: ['PENDING', 'NO_SHOW'] }), status({ type: 'string', enum: ['PENDING'] }))).toEqual([]);
  });

  it('when a response field may now be null, then it is breaking', () => {
    expect(bookingChanges(status({ type: 'string' }), status({ anyOf: [{ type: 'string' }, { type: 'null' }] }))).toMatchObject([
      { kind: 'type-widened', message: 'field `data[].status` may now be null' },
    ]);
  });

  it('when a response type changes, then it is breaking; when it only narrows, then not', () => {
    expect(kinds(status({ type: 'string' }), status({ type: 'integer' }))).toEqual(['type-widened']);
    expect(kinds(status({ type: ['string', 'null'] }), status({ type: 'string' }))).toEqual([]);
    expect(kinds(status({ type: 'number' }), status({ type: 'integer' }))).toEqual([]);
  });

  it('when response bounds change, then nothing is breaking (bounds are checked on requests only)', () => {
    expect(kinds(status({ type: 'string', maxLength: 5 }), status({ type: 'string', maxLength: 50, pattern: '^x' }))).toEqual([]);
  });
});
