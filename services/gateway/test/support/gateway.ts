import { startTestService, type RunningService } from '@app/service-kit/testing';
import { configSchema, type Config } from '../../src/config.js';
import { service } from '../../src/service.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export type Gateway = RunningService<Config>;

export function startGateway(env: Record<string, string>): Promise<Gateway> {
  return startTestService(service, configSchema, { ADMIN_TOKEN, ...env });
}

export async function createOrganization(
  gateway: Gateway,
  name = 'Acme',
  timezone?: string,
): Promise<{ id: string; api_key: string; timezone: string }> {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/admin/v1/organizations',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: timezone ? { name, timezone } : { name },
  });
  if (response.statusCode !== 201) throw new Error(`organization not created: ${response.body}`);
  return response.json().data;
}
