import type { Gateway } from './harness.js';

/** `POST /api/v1/api-keys` with a secret key: the whole answer, for tests that judge refusals too. */
export function postApiKey(gateway: Gateway, secretKey: string, body: unknown) {
  return gateway.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${secretKey}` },
    payload: body as object,
  });
}

/** A key of `body`'s kind, created by the organization's secret key: its record and the key. */
export async function createKey(
  gateway: Gateway,
  secretKey: string,
  body: Record<string, unknown>,
): Promise<{ id: string; key: string; prefix: string; type: string; scopes: string[] | null; allowed_origins: string[] | null }> {
  const response = await postApiKey(gateway, secretKey, body);
  if (response.statusCode !== 201) throw new Error(`key not created: ${response.body}`);
  return response.json().data;
}
