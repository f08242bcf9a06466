import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { failure } from './support/failure.js';
import { ScriptedServer } from './support/scripted-server.js';

const ID = '7b0e3c52-8d7a-4f7e-9c1b-3f1f0c6a2d11';
const ETAG = '"q3BQxWn1V8fVbS2pC9tKjA"';

describe('ETags and conditional requests against a local server', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = new ScriptedServer();
    await server.start();
  });
  afterEach(() => server.stop());

  const api = () => createClient({ baseUrl: server.url, apiKey: 'sk_test' });
  const path = { params: { path: { id: ID } } };

  it('when a record is read, then the result carries its ETag; a list has none', async () => {
    server.script({ status: 200, headers: { etag: ETAG }, body: { data: { id: ID } } }, { status: 200, body: { data: [], meta: {} } });

    expect((await api().GET('/api/v1/bookings/{id}', path)).etag).toBe(ETAG);
    expect((await api().GET('/api/v1/bookings')).etag).toBeUndefined();
  });

  it('when getIfChanged finds the copy current, then it resolves undefined; when not, the new record with its ETag', async () => {
    server.respond((request) =>
      request.headers['if-none-match'] === ETAG
        ? { status: 304, headers: { etag: ETAG } }
        : { status: 200, headers: { etag: '"next"' }, body: { data: { id: ID, status: 'CONFIRMED' } } },
    );

    expect(await api().getIfChanged('/api/v1/bookings/{id}', ETAG, path)).toBeUndefined();
    const changed = await api().getIfChanged('/api/v1/bookings/{id}', '"old"', path);
    expect(changed?.data.data).toMatchObject({ id: ID, status: 'CONFIRMED' });
    expect(changed?.etag).toBe('"next"');
    expect(server.requests.map((request) => request.headers['if-none-match'])).toEqual([ETAG, '"old"']);
  });

  it('when a PATCH with a stale If-Match is refused, then it throws the 412 PRECONDITION_FAILED', async () => {
    server.script({ status: 412, body: { error: "If-Match does not match the record's current ETag", code: 'PRECONDITION_FAILED' } });

    const error = await failure(api().PATCH('/api/v1/bookings/{id}', { ...path, body: { title: 'x' }, headers: { 'If-Match': ETAG } }));

    expect(error).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED', message: "If-Match does not match the record's current ETag" });
    expect(server.requests).toHaveLength(1);
  });
});
