import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const createdOrganization = z.object({ data: z.object({ id: z.string(), api_key: z.string() }) });

/**
 * The development organization's key: reused from `keyFile` while the gateway still takes it, else created with
 * `adminToken` and saved there (owner-only); null without an admin token to create one.
 */
export async function developmentKey(
  gatewayUrl: string,
  { keyFile, adminToken }: { keyFile: string; adminToken: string | undefined },
): Promise<string | null> {
  if (existsSync(keyFile)) {
    const saved = readFileSync(keyFile, 'utf8').trim();
    const check = await fetch(`${gatewayUrl}/api/v1/event-types?limit=1`, { headers: { authorization: `Bearer ${saved}` } });
    if (check.status !== 401) return saved;
  }
  if (!adminToken) return null;
  const response = await fetch(`${gatewayUrl}/admin/v1/organizations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Development', timezone: 'UTC' }),
  });
  if (response.status !== 201) throw new Error(`could not create the development organization: ${await response.text()}`);
  const { data } = createdOrganization.parse(await response.json());
  writeFileSync(keyFile, `${data.api_key}\n`, { mode: 0o600 });
  console.log(`Created the development organization ${data.id}; its key is saved in ${keyFile}.`);
  return data.api_key;
}
