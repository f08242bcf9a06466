import { changes, type Change, type ChangesOptions } from './changes.js';
import { apiErrorOf } from './errors.js';
import { apiKeysOf, holdsOf, type ApiKeys, type Holds } from './namespaces.js';
import { uploadFile, type UploadOptions, type UploadSource } from './media.js';
import { pages, records, type LooseInit } from './pagination.js';
import type { RetryOptions } from './retry.js';
import { createTransport } from './transport.js';
import type { ApiResult, CallMethod, InitArgs, ListItem, ListPath, Method, Page, PathsFor, RequestInitFor, ResponseData } from './types.js';

export interface ClientOptions {
  /** The gateway's address, e.g. `https://api.example.com` (paths start with `/api/v1/…`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`: an organization's `sk_…` key, or the gateway's admin token for `/admin/v1/*`. */
  apiKey?: string;
  /** Retries of 429/503 answers (see README); `false` never retries. */
  retries?: Partial<RetryOptions> | false;
  /** The fetch to send requests with. Default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/**
 * The API, keyed on its paths: `api.GET('/api/v1/bookings/{id}', { params: { path: { id } } })`. Every method
 * resolves to `{data, response, requestId, replayed}` on a 2xx and throws `ApiError` otherwise.
 */
export interface ApiClient {
  GET: CallMethod<'get'>;
  POST: CallMethod<'post'>;
  PUT: CallMethod<'put'>;
  PATCH: CallMethod<'patch'>;
  DELETE: CallMethod<'delete'>;
  /** The pages of a list path, each next one by the previous page's `meta.next_cursor`, until it is null. */
  pages<P extends ListPath, Init extends RequestInitFor<P, 'get'>>(
    path: P,
    ...init: InitArgs<Init>
  ): AsyncGenerator<Page<ListItem<P>>, void>;
  /** Every record of a list path, fetching the pages as the iteration reaches them. */
  paginate<P extends ListPath, Init extends RequestInitFor<P, 'get'>>(path: P, ...init: InitArgs<Init>): AsyncGenerator<ListItem<P>, void>;
  /**
   * The change feed (`GET /api/v1/changes`): every change after `after`, in order, each once, following `next_cursor`;
   * with `follow: true` it then long-polls for new ones until `signal` aborts.
   */
  changes(options?: ChangesOptions): AsyncGenerator<Change, void>;
  /** `POST /api/v1/media` (multipart/form-data) from bytes, a Blob or a stream; `api.POST('/api/v1/media', { body: { file } })` works too. */
  uploadMedia(file: UploadSource, options?: UploadOptions): Promise<ApiResult<ResponseData<'/api/v1/media', 'post'>>>;
  /**
   * GET of one record unless the copy the caller holds, of ETag `etag` (a result's `etag`), is still current: the new
   * result, or undefined when the server answered 304 Not Modified (sent with `If-None-Match: etag`).
   */
  getIfChanged<P extends PathsFor<'get'>, Init extends RequestInitFor<P, 'get'>>(
    path: P,
    etag: string,
    ...init: InitArgs<Init>
  ): Promise<ApiResult<ResponseData<P, 'get', Init>> | undefined>;
  /** The organization's keys (`/api/v1/api-keys`; a secret key only): create, list, get, revoke. */
  apiKeys: ApiKeys;
  /** Holds (`/api/v1/holds`): keep a slot while a visitor checks out, then book it with `hold_id`. */
  holds: Holds;
}

export function createClient(options: ClientOptions): ApiClient {
  const { call, send, resultOf } = createTransport({ ...options, key: options.apiKey });
  const method = (name: Method) => (path: string, init?: LooseInit) => call(name, path, init);
  const loose = {
    GET: method('get'),
    POST: method('post'),
    PUT: method('put'),
    PATCH: method('patch'),
    DELETE: method('delete'),
    pages: (path: string, init?: LooseInit) => pages(call, path, init),
    paginate: (path: string, init?: LooseInit) => records(pages(call, path, init)),
    changes: (options?: ChangesOptions) => changes(call, options),
    async uploadMedia(file: UploadSource, upload: UploadOptions = {}) {
      const headers = upload.idempotencyKey === undefined ? {} : { 'idempotency-key': upload.idempotencyKey };
      const body = { alt_text: upload.altText, file: await uploadFile(file, upload) };
      return call('post', '/api/v1/media', { body, headers, signal: upload.signal });
    },
    async getIfChanged(path: string, etag: string, init?: LooseInit) {
      const headers = { ...(init?.headers as Record<string, string> | undefined), 'if-none-match': etag };
      const { data, error, response } = await send('get', path, { ...init, headers });
      if (response.status === 304) return undefined;
      if (!response.ok) throw apiErrorOf(response, error, 'get', path);
      return resultOf(data, response);
    },
  };
  // The one unchecked step: the loose implementation answers what the generated types of each path say.
  const typed = loose as unknown as Omit<ApiClient, 'apiKeys' | 'holds'>;
  return { ...typed, apiKeys: apiKeysOf(call), holds: holdsOf(call) };
}
