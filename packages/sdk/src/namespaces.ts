import type { ApiKeyRecord, CreateApiKeyBody, CreatedApiKey, CreateHoldBody, Hold, ListOf } from './key-types.js';
import type { AnyCall } from './transport.js';
import type { ApiResult } from './types.js';

/** The organization's keys; a secret key only (others get 403 `FORBIDDEN`, `This key cannot manage API keys`). */
export interface ApiKeys {
  /** `POST /api/v1/api-keys`: the answer's `key` is shown this once. */
  create(body: CreateApiKeyBody, options?: { idempotencyKey?: string }): Promise<ApiResult<{ data: CreatedApiKey }>>;
  /** `GET /api/v1/api-keys`: live keys only. */
  list(query?: { limit?: number; offset?: number }): Promise<ApiResult<ListOf<ApiKeyRecord>>>;
  get(id: string): Promise<ApiResult<{ data: ApiKeyRecord }>>;
  /** `DELETE /api/v1/api-keys/{id}`: refused everywhere within 5 s. */
  revoke(id: string): Promise<ApiResult<unknown>>;
}

/** Holds keep a slot while a visitor checks out; book it with `hold_id`. */
export interface Holds {
  create(body: CreateHoldBody, options?: { idempotencyKey?: string }): Promise<ApiResult<{ data: Hold }>>;
  get(id: string): Promise<ApiResult<{ data: Hold }>>;
  /** `DELETE /api/v1/holds/{id}`: the hold becomes `released` and its seats are free at once. */
  release(id: string): Promise<ApiResult<{ data: Hold }>>;
}

const idempotency = (options?: { idempotencyKey?: string }) =>
  options?.idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': options.idempotencyKey } };
const byId = (id: string) => ({ params: { path: { id } } });

// The casts: these paths are typed from API.md (key-types.ts), not from the generated schema.
export function apiKeysOf(call: AnyCall): ApiKeys {
  return {
    create: async (body, options) => call('post', '/api/v1/api-keys', { body, ...idempotency(options) }) as never,
    list: async (query) => call('get', '/api/v1/api-keys', { params: { query } }) as never,
    get: async (id) => call('get', '/api/v1/api-keys/{id}', byId(id)) as never,
    revoke: async (id) => call('delete', '/api/v1/api-keys/{id}', byId(id)),
  };
}

export function holdsOf(call: AnyCall): Holds {
  return {
    create: async (body, options) => call('post', '/api/v1/holds', { body, ...idempotency(options) }) as never,
    get: async (id) => call('get', '/api/v1/holds/{id}', byId(id)) as never,
    release: async (id) => call('delete', '/api/v1/holds/{id}', byId(id)) as never,
  };
}
