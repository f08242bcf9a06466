import type { ApiResult, ListBody, Page } from './types.js';

/** The client's own call, untyped (the typed surface is declared on `ApiClient`). */
export type LooseCall = (method: 'get', path: string, init: LooseInit | undefined) => Promise<ApiResult<unknown>>;
export interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown> };
  [key: string]: unknown;
}

/**
 * The pages of a list, from `query.offset` (default 0) on, each asked with `offset` moved on by the `limit`
 * the server applied, until `meta.hasMore` is false.
 */
export async function* pages(call: LooseCall, path: string, init: LooseInit | undefined): AsyncGenerator<Page<unknown>, void, undefined> {
  let offset = Number(init?.params?.query?.offset ?? 0);
  for (;;) {
    const params = { ...init?.params, query: { ...init?.params?.query, offset } };
    const { data, response } = await call('get', path, { ...init, params });
    if (!isListBody(data)) throw new TypeError(`GET ${path} did not answer a list ({data: [...], meta})`);
    yield { data: data.data, meta: data.meta, response };
    // An empty page ends the walk too, whatever hasMore says: a server bug must not loop forever.
    if (!data.meta.hasMore || data.data.length === 0) return;
    offset = data.meta.offset + data.meta.limit;
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
    typeof meta.total === 'number'
  );
}
