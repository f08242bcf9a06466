import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, prismaAdapter, type ServiceDefinition } from '@app/service-kit';
import { capturedLog, startedForTests, startTestService, testEnv, trickleRequest } from '@app/service-testing';
import { buildApp } from '../src/app.js';
import { configSchema, type Config } from '../src/config.js';
import { IdentityRepository } from '../src/identity/identity.repository.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { SCHEMA, service } from '../src/service.js';
import { startEchoUpstreams } from './support/echo-upstreams.js';
import { ADMIN_TOKEN, createOrganization, gatewayForThisTest, startGateway } from './support/harness.js';

const METRICS_TOKEN = 'gateway-metrics-token-0123';

describe('gateway HTTP timeouts', () => {
  const upstreams = startedForTests(startEchoUpstreams, { stop: (started) => started.close() });
  const gateway = startedForTests(() =>
    startGateway(upstreams.env, { kit: { httpTimeouts: { requestTimeout: 1000, headersTimeout: 1000 } } }),
  );
  let url: string;
  beforeAll(async () => {
    url = await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('when a keyed POST trickles its body one byte at a time, then 408 REQUEST_TIMEOUT within the timeout and the connection is closed', async () => {
    const org = await createOrganization(gateway);
    const head = [
      'POST /api/v1/bookings HTTP/1.1',
      'Host: gateway',
      `Authorization: Bearer ${org.api_key}`,
      'Content-Type: application/json',
      'Content-Length: 10000',
      '',
      '',
    ].join('\r\n');
    const { response, closedAfterMs } = await trickleRequest(url, head);
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(closedAfterMs).toBeLessThan(2500);
  });

  it('when the headers trickle in, then the connection is cut within the timeout', async () => {
    const { response, closedAfterMs } = await trickleRequest(url, 'GET /api/bookings/slots HTTP/1.1\r\nHost: gateway\r\nX-Slow: ');
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeLessThan(2500);
  });
});

describe('gateway /metrics', () => {
  it('when METRICS_TOKEN is set, then /metrics answers only its bearer (401 in the error shape otherwise)', async () => {
    const gateway = await gatewayForThisTest((env) => startGateway({ ...env, METRICS_TOKEN }));
    const anonymous = await gateway.app.inject({ url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Missing or invalid metrics token', code: 'UNAUTHORIZED' });
    expect((await gateway.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).statusCode).toBe(401);
    const allowed = await gateway.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toMatch(/http_requests_total/);
  });

  it('when METRICS_PORT is set, then /metrics is served there and not on the API port', async () => {
    const gateway = await gatewayForThisTest((env) => startGateway({ ...env, METRICS_PORT: '0', METRICS_TOKEN }));
    expect((await gateway.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode).toBe(404);
    expect((await fetch(`${gateway.metricsUrl}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${gateway.metricsUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/service="gateway"/);
  });
});

describe('gateway log lines', () => {
  it('when requests carry OAuth code/state, an email filter or a key, then the log keeps paths and allowed parameters only', async () => {
    const { lines, log } = capturedLog('gateway');
    const definition: ServiceDefinition<Config> = {
      ...service,
      async build(infra) {
        const prisma = new PrismaClient({ adapter: prismaAdapter(infra.pool, SCHEMA) });
        const app = await buildApp({ config: infra.config, identity: new IdentityRepository(prisma), log, readiness: infra.readiness });
        return { app, close: () => prisma.$disconnect() };
      },
    };
    const gateway = await gatewayForThisTest((env) => startTestService(definition, configSchema, { ...env, ADMIN_TOKEN }));
    const org = await createOrganization(gateway);
    await gateway.app.inject({ url: '/api/calendar-connections/oauth/google/callback?code=4%2F0AQ-oauth-code&state=signed.oauth.state' });
    await gateway.app.inject({
      url: '/api/v1/bookings?attendee_email=ada%40example.com&limit=5&offset=10&scheduleId=sch-1&startDate=2026-03-08',
      headers: { authorization: `Bearer ${org.api_key}` },
    });
    const completed = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => line.url)).toEqual([
      '/admin/v1/organizations',
      '/api/calendar-connections/oauth/google/callback?code=[redacted]&state=[redacted]',
      '/api/v1/bookings?attendee_email=[redacted]&limit=5&offset=10&scheduleId=sch-1&startDate=2026-03-08',
    ]);
    const all = lines.join('\n');
    for (const secret of ['oauth-code', 'signed.oauth.state', 'ada', 'example.com', org.api_key, ADMIN_TOKEN])
      expect(all).not.toContain(secret);
  });
});

describe('gateway secrets fail closed', () => {
  // With /metrics protected, as production requires (the next test), so each case is about its own variable.
  const env = (extra: Record<string, string | undefined>) => ({ ...testEnv(), NODE_ENV: undefined, METRICS_TOKEN, ...extra });

  it.each([
    ['unset', undefined],
    ['production', 'production'],
  ])(
    'when NODE_ENV is %s and /metrics has neither METRICS_TOKEN nor METRICS_PORT, then it refuses to start naming both',
    (_case, nodeEnv) => {
      const unprotected = env({ NODE_ENV: nodeEnv, ADMIN_TOKEN, METRICS_TOKEN: undefined });
      expect(() => loadConfig(configSchema, unprotected)).toThrow(
        /METRICS_TOKEN: METRICS_TOKEN or METRICS_PORT is required unless NODE_ENV=development/,
      );
      expect(loadConfig(configSchema, { ...unprotected, METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
      expect(loadConfig(configSchema, { ...unprotected, METRICS_TOKEN }).METRICS_TOKEN).toBe(METRICS_TOKEN);
    },
  );

  it.each([
    ['unset', undefined],
    ['production', 'production'],
  ])('when NODE_ENV is %s and ADMIN_TOKEN is missing, then it refuses to start naming ADMIN_TOKEN', (_case, nodeEnv) => {
    expect(() => loadConfig(configSchema, env({ NODE_ENV: nodeEnv }))).toThrow(/ADMIN_TOKEN: is required unless NODE_ENV=development/);
  });

  it('when NODE_ENV=development is set explicitly, then the development token stands in', () => {
    expect(loadConfig(configSchema, env({ NODE_ENV: 'development' })).ADMIN_TOKEN).toBe('dev-admin-token');
  });

  it.each([
    ['TRUST_PROXY', 'everyone'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['RATE_LIMIT_REDIS_URL', 'http://127.0.0.1:6379'],
    ['AUTH_FAILURES_MAX', '0'],
  ])('when %s is %s, then it refuses to start naming it', (name, value) => {
    expect(() => loadConfig(configSchema, env({ NODE_ENV: 'production', ADMIN_TOKEN, [name]: value }))).toThrow(new RegExp(name));
  });
});
