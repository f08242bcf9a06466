import type { ApiKeyScope, ApiKeyType } from '@app/contracts';
import { keyKindHeaders } from '@app/service-testing';
import type { Reply, Running } from './harness.js';

/**
 * A client of one organization calling through a key of `keyType`: the gateway's caller assertion then names that
 * kind, as it does for a browser's publishable key. Extra headers (Idempotency-Key) per call.
 */
export function keyClient(running: Running, organizationId: string, keyType: ApiKeyType, scopes?: ApiKeyScope[]) {
  const headers = keyKindHeaders(organizationId, keyType, scopes);
  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Reply & { headers: Record<string, unknown> }> {
    const response = await running.app.inject({
      method,
      url,
      headers: { ...headers, ...extra },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  }
  return {
    organizationId,
    get: (url: string) => call('GET', url),
    post: (url: string, payload: unknown = {}, extra?: Record<string, string>) => call('POST', url, payload, extra),
    patch: (url: string, payload: unknown) => call('PATCH', url, payload),
    delete: (url: string) => call('DELETE', url),
  };
}
export type KeyClient = ReturnType<typeof keyClient>;
