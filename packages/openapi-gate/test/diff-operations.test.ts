import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../src/diff-documents.ts';
import { apiDocument, getItems, object, postItems } from './documents.ts';

const ok = { '200': { description: 'OK' } };
const kinds = (before: unknown, after: unknown) => diffDocuments(before, after).map((change) => change.kind);

describe('diffDocuments: paths and operations', () => {
  it('when a path is removed, then it is breaking, at the path', () => {
    const before = apiDocument({ paths: { '/a': { get: { responses: ok } }, '/b/{id}': { get: { responses: ok } } } });
    const after = apiDocument({ paths: { '/a': { get: { responses: ok } } } });

    const changes = diffDocuments(before, after);

    expect(changes).toEqual([{ kind: 'path-removed', location: '/b/{id}', message: 'the path was removed', pointer: '/paths/~1b~1{id}' }]);
  });

  it('when an operation is removed from a path that stays, then it is breaking', () => {
    const before = apiDocument({ paths: { '/a': { get: { responses: ok }, delete: { responses: ok } } } });
    const after = apiDocument({ paths: { '/a': { get: { responses: ok } } } });

    const changes = diffDocuments(before, after);

    expect(changes).toMatchObject([{ kind: 'operation-removed', location: 'DELETE /a', pointer: '/paths/~1a/delete' }]);
  });

  it('when a path or an operation is added, then nothing is breaking', () => {
    const before = apiDocument({ paths: { '/a': { get: { responses: ok } } } });
    const after = apiDocument({ paths: { '/a': { get: { responses: ok }, post: { responses: ok } }, '/b': { get: { responses: ok } } } });

    expect(kinds(before, after)).toEqual([]);
  });

  it('when a path parameter is renamed, then the endpoint is the same and nothing is breaking', () => {
    const param = (name: string) => ({ in: 'path', name, required: true, schema: { type: 'string' } });
    const before = apiDocument({ paths: { '/a/{id}': { get: { parameters: [param('id')], responses: ok } } } });
    const after = apiDocument({ paths: { '/a/{itemId}': { get: { parameters: [param('itemId')], responses: ok } } } });

    expect(kinds(before, after)).toEqual([]);
  });

  it('when a success response is removed, then it is breaking; when an error response is, then not', () => {
    const responses = { '201': { description: 'Created' }, '409': { description: 'Conflict' } };
    const before = apiDocument({ paths: { '/a': { post: { responses } } } });
    const after = apiDocument({ paths: { '/a': { post: { responses: { '200': { description: 'OK' } } } } } });

    expect(diffDocuments(before, after)).toMatchObject([{ kind: 'response-removed', pointer: '/paths/~1a/post/responses/201' }]);
  });

  it('when a request media type is removed, then it is breaking', () => {
    const before = postItems({ type: 'object' });
    const after = postItems({ type: 'object' }, { mediaType: 'multipart/form-data' });

    expect(diffDocuments(before, after)).toMatchObject([
      { kind: 'media-type-removed', location: 'POST /items, request body', message: 'application/json is no longer accepted' },
    ]);
  });
});

describe('diffDocuments: parameters', () => {
  const limit = (extra: object = {}) => ({ in: 'query', name: 'limit', schema: { type: 'integer' }, ...extra });

  it('when a new required parameter is added, then it is breaking', () => {
    const before = getItems({ type: 'object' }, [limit()]);
    const after = getItems({ type: 'object' }, [limit(), { in: 'header', name: 'X-Tenant', required: true, schema: { type: 'string' } }]);

    const changes = diffDocuments(before, after);

    expect(changes).toMatchObject([
      { kind: 'parameter-required', location: 'GET /items, header parameter `X-Tenant`', pointer: '/paths/~1items/get/parameters/1' },
    ]);
  });

  it('when an optional parameter becomes required, then it is breaking', () => {
    expect(kinds(getItems({}, [limit()]), getItems({}, [limit({ required: true })]))).toEqual(['parameter-required']);
  });

  it('when a new optional parameter is added or a parameter becomes optional, then nothing is breaking', () => {
    const before = getItems({}, [limit({ required: true })]);
    const after = getItems({}, [limit(), { in: 'query', name: 'offset', schema: { type: 'integer' } }]);

    expect(kinds(before, after)).toEqual([]);
  });

  it('when a parameter moves into components and its schema narrows, then the narrowing is found through the $ref', () => {
    const before = getItems({}, [{ in: 'query', name: 'limit', schema: { type: ['integer', 'string'] } }]);
    const after = { ...getItems({}, [{ $ref: '#/components/parameters/Limit' }]), components: { parameters: { Limit: limit() } } };

    const changes = diffDocuments(before, after);

    expect(changes).toMatchObject([
      { kind: 'type-narrowed', location: 'GET /items, query parameter `limit`', pointer: '/paths/~1items/get/parameters/0/schema/type' },
    ]);
    expect(changes[0]?.message).toBe('the value no longer accepts string (type integer | string → integer)');
  });

  it('when a path-item parameter is overridden by the operation, then the operation one is compared', () => {
    const before = apiDocument({ paths: { '/a': { parameters: [limit({ required: true })], get: { responses: ok } } } });
    const after = apiDocument({
      paths: { '/a': { parameters: [limit({ required: true })], get: { parameters: [limit()], responses: ok } } },
    });

    expect(kinds(before, after)).toEqual([]);
  });
});

describe('diffDocuments: request body', () => {
  it('when an optional request body becomes required, then it is breaking', () => {
    const before = postItems(object({ name: { type: 'string' } }), { required: false });
    const after = postItems(object({ name: { type: 'string' } }));

    expect(kinds(before, after)).toEqual(['request-body-required']);
  });

  it('when the body moves to components/requestBodies and a field becomes required there, then that is found', () => {
    const before = postItems(object({ name: { type: 'string' } }));
    const item = { required: true, content: { 'application/json': { schema: object({ name: { type: 'string' } }, ['name']) } } };
    const responses = { '201': { description: 'Created', content: { 'application/json': { schema: { type: 'object' } } } } };
    const after = {
      ...apiDocument({ paths: { '/items': { post: { requestBody: { $ref: '#/components/requestBodies/Item' }, responses } } } }),
      components: { requestBodies: { Item: item } },
    };

    expect(diffDocuments(before, after)).toMatchObject([
      { kind: 'request-field-required', location: 'POST /items, request body (application/json)', message: 'field `name` is now required' },
    ]);
  });
});
