import { afterAll, beforeAll, onTestFinished } from 'vitest';
import type { KitTuningOverrides } from '@app/service-kit';
import { startTestService, type RunningService } from '@app/service-testing';
import { startEchoUpstreams, type EchoUpstreams } from './echo-upstreams.js';
import { configSchema, type Config, type Tuning } from '../../src/config.js';
import { createServiceDefinition } from '../../src/service.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export type Gateway = RunningService<Config>;

/**
 * The gateway under test; `tuning` puts a test's values in place of the gateway's constants (a faster replica probe),
 * `kit` in place of the kit's (its HTTP timeouts).
 */
export function startGateway(
  env: Record<string, string>,
  options: { tuning?: Partial<Tuning>; kit?: KitTuningOverrides } = {},
): Promise<Gateway> {
  return startTestService(createServiceDefinition({ tuning: options.tuning }), configSchema, { ADMIN_TOKEN, ...env }, options.kit);
}

/**
 * A gateway in front of echo upstreams for the tests of one describe block: started before them, stopped after.
 * Read `gateway` and `upstreams` inside tests (they are set once the block's beforeAll has run).
 */
export function gatewayBehindEchoes(env: Record<string, string> = {}): { gateway: Gateway; upstreams: EchoUpstreams } {
  const fixture = {} as { gateway: Gateway; upstreams: EchoUpstreams };
  beforeAll(async () => {
    fixture.upstreams = await startEchoUpstreams();
    fixture.gateway = await startGateway({ ...fixture.upstreams.env, ...env });
  });
  afterAll(async () => {
    await fixture.gateway?.stop();
    await fixture.upstreams?.close();
  });
  return fixture;
}

/**
 * A gateway of this test's own in front of echo upstreams of its own, both stopped when the test finishes: `start`
 * is given the upstreams' env (startGateway, or startTestService for a service the test built itself).
 */
export async function gatewayForThisTest(start: (upstreamsEnv: Record<string, string>) => Promise<Gateway>): Promise<Gateway> {
  const upstreams = await startEchoUpstreams();
  onTestFinished(() => upstreams.close());
  const gateway = await start(upstreams.env);
  onTestFinished(() => gateway.stop());
  return gateway;
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
