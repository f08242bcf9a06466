import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type {
  ErrorResponse,
  HttpMethod,
  MediaType,
  PathsWithMethod,
  Readable,
  RequiredKeysOf,
  ResponseObjectMap,
} from 'openapi-typescript-helpers';
import type { paths } from './generated/schema.js';

/** The methods the client calls (the document's operations use these). */
export type Method = Extract<HttpMethod, 'get' | 'put' | 'post' | 'patch' | 'delete'>;

/** Schema paths (`/api/v1/bookings/{id}`) that have an operation for `M`. */
export type PathsFor<M extends Method> = PathsWithMethod<paths, M>;

/** The operation object of a path and method, as openapi-fetch's helper types expect it. */
type Operation<P extends PathsFor<M>, M extends Method> = Extract<paths[P][M], Record<string | number, unknown>>;

/** The second argument of a call: path/query/header params, body, `signal`, `headers`… as openapi-fetch takes them. */
export type RequestInitFor<P extends PathsFor<M>, M extends Method> = MaybeOptionalInit<paths[P], M>;

/** Optional when nothing in the init is required (as openapi-fetch does). */
export type InitArgs<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The success body of an operation (its 2xx content). */
export type ResponseData<P extends PathsFor<M>, M extends Method, Init = object> = NonNullable<
  FetchResponse<Operation<P, M>, Init, MediaType>['data']
>;

/** The error bodies an operation documents (its 4xx/5xx content). */
export type OperationErrorBody<P extends PathsFor<M>, M extends Method> = Readable<
  ErrorResponse<Extract<ResponseObjectMap<Operation<P, M>>, Record<string | number, unknown>>, MediaType>
>;

/** The error bodies an operation object documents (`never` for a path item's missing method). */
type ErrorBodiesOf<Op> =
  Op extends Record<string | number, unknown>
    ? Readable<ErrorResponse<Extract<ResponseObjectMap<Op>, Record<string | number, unknown>>, MediaType>>
    : never;

/** Every error body the document's operations declare. */
type DocumentedErrorBody = Extract<
  { [P in keyof paths]: { [M in Method]: ErrorBodiesOf<paths[P][M]> }[Method] }[keyof paths],
  { error: string; code: string }
>;
type DocumentedDetail = NonNullable<Extract<DocumentedErrorBody, { details?: unknown }>['details']>[number];

/** Every machine code the document's operations answer with (`NOT_FOUND`, `SLOT_TAKEN`, …). */
export type ErrorCode = DocumentedErrorBody['code'];
/** One failed field of a `VALIDATION_ERROR`: `{path, message}`. */
export type ErrorDetail = { [K in keyof DocumentedDetail as K]: DocumentedDetail[K] };
/** The API's error body (API.md): a human message, a machine code, and the failed fields of a validation error. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details?: ErrorDetail[];
}

/** What a successful call resolves to. */
export interface ApiResult<T> {
  data: T;
  response: Response;
  /** The `x-request-id` the gateway answered with (quote it when reporting a problem). */
  requestId: string | undefined;
  /** True when a create was answered from its `Idempotency-Key` (header `idempotent-replayed: true`). */
  replayed: boolean;
  /**
   * The record's ETag on the GET and PATCH of one record (else undefined): send it back as `If-Match` (a change that
   * applies to this version only, else a 412 `PRECONDITION_FAILED`) or to `getIfChanged` (nothing read while it is current).
   */
  etag: string | undefined;
}

/** One call of the API: throws `ApiError` on any non-2xx answer. */
export type CallMethod<M extends Method> = <P extends PathsFor<M>, Init extends RequestInitFor<P, M>>(
  path: P,
  ...init: InitArgs<Init>
) => Promise<ApiResult<ResponseData<P, M, Init>>>;

/** A list body: `{data: [...], meta: {total, limit, offset, hasMore, next_cursor}}`. */
export interface ListBody<T> {
  data: T[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean; next_cursor: string | null };
}

/** The GET paths that answer a paginated list. */
export type ListPath = { [P in PathsFor<'get'>]: ResponseData<P, 'get'> extends ListBody<unknown> ? P : never }[PathsFor<'get'>];

/** One record of a list path. */
export type ListItem<P extends ListPath> = ResponseData<P, 'get'> extends { data: (infer T)[] } ? T : never;

/** One page of a list path, with the response it came in. */
export interface Page<T> extends ListBody<T> {
  response: Response;
}
