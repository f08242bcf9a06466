import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { ScriptedServer } from './support/scripted-server.js';

const ids = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${letter.repeat(8)}-0000-4000-8000-000000000000`);

/** The five event types of a list, two a page, by offset or after a cursor naming the last id seen. */
function pageOf(url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const cursor = url.searchParams.get('cursor');
  const offset = cursor === null ? Number(url.searchParams.get('offset') ?? 0) : ids.indexOf(cursor) + 1;
  const data = ids.slice(offset, offset + limit).map((id) => ({ id, title: id.slice(0, 1) }));
  const hasMore = offset + data.length < ids.length;
  return { data, meta: { total: ids.length, limit, offset, hasMore, next_cursor: hasMore ? (data.at(-1)?.id ?? null) : null } };
}

describe('pages and paginate against a local server', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = new ScriptedServer().respond((request) => ({ status: 200, body: pageOf(new URL(request.url, 'http://x')) }));
    await server.start();
  });
  afterEach(() => server.stop());

  const api = () => createClient({ baseUrl: server.url, apiKey: 'sk_test', retries: false });
  const queries = () => server.requests.map((request) => Object.fromEntries(new URL(request.url, 'http://x').searchParams));

  it('when a list is walked, then each next page is asked for by the last next_cursor, with the filters and no offset', async () => {
    const walked = [];
    for await (const page of api().pages('/api/v1/event-types', { params: { query: { limit: 2, active: true, offset: 1 } } })) {
      walked.push(page.data.map((eventType) => eventType.id));
    }
    expect(walked).toEqual([ids.slice(1, 3), ids.slice(3, 5)]);
    expect(queries()).toEqual([
      { limit: '2', active: 'true', offset: '1' },
      { limit: '2', active: 'true', cursor: ids[2] },
    ]);
  });

  it('when records are paginated, then every one comes once and the walk ends at a null next_cursor', async () => {
    const seen = [];
    for await (const eventType of api().paginate('/api/v1/event-types', { params: { query: { limit: 2 } } })) seen.push(eventType.id);
    expect(seen).toEqual(ids);
    expect(queries().map((query) => query.cursor)).toEqual([undefined, ids[1], ids[3]]);
  });
});
