import type { ApiResult, ListBody, Page } from './types.js';

/** The client's own call, untyped (the typed surface is declared on `ApiClient`). */
export type LooseCall = (method: 'get', path: string, init: LooseInit | undefined) => Promise<ApiResult<unknown>>;
export interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown> };
  [key: string]: unknown;
}

/**
 * The pages of a list, from where the query starts (its `offset` or `cursor`, else the beginning), each next one
 * asked for with the previous page's `meta.next_cursor` in place of `offset`, until `next_cursor` is null. A cursor
 * walk neither skips nor repeats a record while others are inserted (API.md), which moving `offset` on cannot promise.
 * The query's other fields (its filters, `limit`, `updated_since`) are sent with every page: the cursor is valid only
 * with them.
 */
export async function* pages(call: LooseCall, path: string, init: LooseInit | undefined): AsyncGenerator<Page<unknown>, void, undefined> {
  let query = init?.params?.query;
  for (;;) {
    const { data, response } = await call('get', path, { ...init, params: { ...init?.params, query } });
    if (!isListBody(data)) throw new TypeError(`GET ${path} did not answer a list ({data: [...], meta})`);
    yield { data: data.data, meta: data.meta, response };
    // An empty page ends the walk too, whatever next_cursor says: a server bug must not loop forever.
    if (data.meta.next_cursor === null || data.data.length === 0) return;
    const { offset: _offset, cursor: _cursor, ...rest } = query ?? {};
    query = { ...rest, cursor: data.meta.next_cursor };
  }
}

/** Every record of a list, page after page. */
export async function* records(pageList: AsyncIterable<Page<unknown>>): AsyncGenerator<unknown, void, undefined> {
  for await (const page of pageList) yield* page.data;
}

function isListBody(value: unknown): value is ListBody<unknown> {
  if (typeof value !== 'object' || value === null || !('data' in value) || !('meta' in value)) return false;
  const { data, meta } = value;
  return (
    Array.isArray(data) &&
    typeof meta === 'object' &&
    meta !== null &&
    'hasMore' in meta &&
    typeof meta.hasMore === 'boolean' &&
    'offset' in meta &&
    typeof meta.offset === 'number' &&
    'limit' in meta &&
    typeof meta.limit === 'number' &&
    'total' in meta &&
    typeof meta.total === 'number' &&
    'next_cursor' in meta &&
    (typeof meta.next_cursor === 'string' || meta.next_cursor === null)
  );
}
