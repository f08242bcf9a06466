import createFetchClient, { type FetchOptions } from 'openapi-fetch';
import { apiErrorOf } from './errors.js';
import { CREATING_POSTS } from './generated/operations.js';
import { idempotencyKeys } from './idempotency.js';
import { serializeBody } from './media.js';
import type { LooseInit } from './pagination.js';
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './retry.js';
import type { ApiResult, Method } from './types.js';

export interface TransportOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (a secret, restricted or publishable key, or the admin token). */
  key?: string | undefined;
  retries?: Partial<RetryOptions> | false | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  headers?: Record<string, string> | undefined;
  /** Whether every creating POST gets a generated `Idempotency-Key` (default true). */
  idempotencyKeys?: boolean;
}

/** Loose view of the paths for the clients' own plumbing; callers only see the typed clients. */
interface LooseOperation {
  parameters: { query?: Record<string, unknown>; path?: Record<string, unknown>; header?: Record<string, unknown> };
  requestBody?: { content: Record<string, unknown> };
  responses: Record<number, { content: Record<string, unknown> }>;
}
type LoosePaths = Record<string, Record<Method, LooseOperation>>;

/** One untyped call: resolves to the 2xx result, throws `ApiError` otherwise. */
export type AnyCall = (method: Method, path: string, init: LooseInit | undefined) => Promise<ApiResult<unknown>>;

/**
 * What both clients send requests through: openapi-fetch with the key, retries of 429/503, an Idempotency-Key on
 * every creating POST, JSON or multipart bodies, and ApiError for every answer outside 2xx.
 */
export function createTransport(options: TransportOptions) {
  const retry = options.retries === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retries };
  const client = createFetchClient<LoosePaths>({
    baseUrl: options.baseUrl,
    fetch: retryingFetch(options.fetch ?? ((request) => fetch(request)), retry),
    headers: { ...options.headers, ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) },
    bodySerializer: serializeBody,
  });
  if (options.idempotencyKeys !== false) client.use(idempotencyKeys(CREATING_POSTS));

  async function send(method: Method, path: string, init: LooseInit | undefined) {
    const fetchOptions: FetchOptions<LooseOperation> = { ...init };
    return client.request(method, path, fetchOptions);
  }
  function resultOf<T>(data: T, response: Response): ApiResult<T> {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const etag = response.headers.get('etag') ?? undefined;
    return { data, response, requestId, replayed: response.headers.get('idempotent-replayed') === 'true', etag };
  }
  const call: AnyCall = async (method, path, init) => {
    const { data, error, response } = await send(method, path, init);
    if (!response.ok) throw apiErrorOf(response, error, method, path);
    return resultOf(data, response);
  };
  return { call, send, resultOf };
}
