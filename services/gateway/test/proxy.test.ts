import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually, PortForwarder, prismaDatamodel, schemaDrift, startedForTests } from '@app/service-testing';
import { ROUTE_TABLE } from '../src/proxy/route-table.js';
import { SCHEMA } from '../src/service.js';
import { startEchoUpstreams, type Echo } from './support/echo-upstreams.js';
import { createOrganization, gatewayForThisTest, startGateway } from './support/harness.js';

const PRISMA_SCHEMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));
const ASYNCAPI_SNAPSHOT = new URL('../../../asyncapi/asyncapi.json', import.meta.url);

describe('proxying', () => {
  const upstreams = startedForTests(startEchoUpstreams, { stop: (started) => started.close() });
  const gateway = startedForTests(() => startGateway(upstreams.env));
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let auth: Record<string, string>;
  beforeAll(async () => {
    org = await createOrganization(gateway, 'Proxy Co', 'America/New_York');
    auth = { authorization: `Bearer ${org.api_key}` };
  });

  it.each(ROUTE_TABLE.map((route) => [route.prefix, route.service] as const))(
    'when %s/… is requested, then %s answers',
    async (prefix, service) => {
      const response = await gateway.app.inject({ url: `${prefix}/abc?x=1`, headers: auth });
      expect(response.statusCode).toBe(200);
      const echo: Echo = response.json();
      expect(echo.service).toBe(service);
      expect(echo.url).toBe(`${prefix}/abc?x=1`);
    },
  );

  it('when a client sends x-organization-id, then it is replaced by the key’s organization', async () => {
    const response = await gateway.app.inject({
      url: '/api/v1/events',
      headers: { ...auth, 'x-organization-id': '11111111-1111-4111-8111-111111111111', 'x-organization-timezone': 'Asia/Tokyo' },
    });
    const echo: Echo = response.json();
    expect(echo.headers['x-organization-id']).toBe(org.id);
    expect(echo.headers['x-organization-timezone']).toBe('America/New_York');
    expect(echo.headers.authorization).toBeUndefined();
  });

  it("when a client sends its own trace context, then it is not forwarded as sent (the gateway's own span replaces it)", async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const response = await gateway.app.inject({ url: '/api/v1/events', headers: { ...auth, traceparent, tracestate: 'vendor=x' } });
    const echo: Echo = response.json();
    // Tracing is off in this process: nothing is added, and the client's copy is gone (with tracing on, the
    // instrumentation adds the gateway's own; forwarded as well, the service would get two).
    expect(echo.headers.traceparent).toBeUndefined();
    expect(echo.headers.tracestate).toBeUndefined();
  });

  it('when a client sends x-organization-id to a route the gateway answers itself, then only the key’s organization counts', async () => {
    const spoofed = { 'x-organization-id': '00000000-0000-4000-8000-000000000000' };
    const withKey = await gateway.app.inject({ url: '/api/v1/ping/gateway', headers: { ...auth, ...spoofed } });
    expect(withKey.json().data.organization_id).toBe(org.id);
    const withoutKey = await gateway.app.inject({ url: '/api/v1/ping/gateway', headers: spoofed });
    expect(withoutKey.statusCode).toBe(401);
  });

  it('when a public route is called without a key, then it is proxied with no organization, even one the client sends', async () => {
    const response = await gateway.app.inject({
      url: '/api/bookings/slots?scheduleId=x',
      headers: { 'x-organization-id': '11111111-1111-4111-8111-111111111111' },
    });
    expect(response.statusCode).toBe(200);
    const echo: Echo = response.json();
    expect(echo.service).toBe('scheduling');
    expect(echo.headers['x-organization-id']).toBeUndefined();
  });

  it('when a public route is called with a bad key, then 401; with a good one, the organization is stamped', async () => {
    const bad = await gateway.app.inject({
      url: '/api/bookings/slots?scheduleId=x',
      headers: { authorization: 'Bearer sk_unknownunknownunknownunknown123' },
    });
    expect(bad.statusCode).toBe(401);
    const good = await gateway.app.inject({ url: '/api/bookings/slots?scheduleId=x', headers: auth });
    expect((good.json() as Echo).headers['x-organization-id']).toBe(org.id);
  });

  it('when x-request-id is given, then the service receives it and the response carries it', async () => {
    const response = await gateway.app.inject({ url: '/api/v1/products', headers: { ...auth, 'x-request-id': 'trace-42' } });
    expect(response.headers['x-request-id']).toBe('trace-42');
    expect((response.json() as Echo).headers['x-request-id']).toBe('trace-42');
  });

  it('when no x-request-id is given, then the gateway generates one and forwards it', async () => {
    const response = await gateway.app.inject({ url: '/api/v1/products', headers: auth });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((response.json() as Echo).headers['x-request-id']).toBe(id);
  });

  it('when a body is posted, then it reaches the service unchanged', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/v1/bookings', headers: auth, payload: { hello: 'world' } });
    expect((response.json() as Echo).body).toEqual({ hello: 'world' });
  });

  it('when a JSON body is not UTF-8, then it is still proxied (the service judges its bytes), not parsed here', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const headers = { ...auth, 'content-type': 'application/json' };
    const response = await gateway.app.inject({ method: 'POST', url: '/api/v1/products', headers, payload });
    expect(response.statusCode).toBe(200);
    expect((response.json() as Echo).service).toBe('catalog');
  });

  it('when a client sends Expect: 100-continue (curl does over 1 MB), then the upload is proxied, not refused', async () => {
    const body = 'x'.repeat(900_000);
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: { ...auth, expect: '100-continue', 'content-type': 'multipart/form-data; boundary=b' },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    const echo: Echo = response.json();
    expect(echo.service).toBe('catalog');
    expect(echo.headers.expect).toBeUndefined();
    expect(String(echo.body).length).toBe(body.length);
  });

  it.each([
    ['a JSON body over 1 MB', 'application/json', 1024 * 1024 + 1],
    ['an upload over 10 MB and its form', 'multipart/form-data; boundary=b', 10 * 1024 * 1024 + 64 * 1024 + 1],
  ])('when %s is declared, then 413 PAYLOAD_TOO_LARGE before anything is proxied', async (_case, contentType, size) => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: { ...auth, 'content-type': contentType },
      payload: Buffer.alloc(size, 120),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('an upstream that is down', () => {
  it('when the service does not answer, then 503 UPSTREAM_UNAVAILABLE with Retry-After quickly, never a hang or 500', async () => {
    // A port of the test's own that forwards nowhere: every connection is closed at once, and no other process can take it.
    const down = await PortForwarder.open();
    onTestFinished(() => down.close());
    const gateway = await gatewayForThisTest((env) => startGateway({ ...env, CATALOG_URL: `http://127.0.0.1:${down.port}` }));
    const org = await createOrganization(gateway);
    const response = await gateway.app.inject({ url: '/api/v1/products', headers: { authorization: `Bearer ${org.api_key}` } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'A service this request needs did not answer in time', code: 'UPSTREAM_UNAVAILABLE' });
    expect(response.headers['retry-after']).toBe('1');
  });
});

describe('replicas', () => {
  it('when a service has two upstream URLs, then requests are balanced across both', async () => {
    const first = await startEchoUpstreams();
    const second = await startEchoUpstreams();
    const gateway = await startGateway({ ...first.env, EVENTS_URL: `${first.env.EVENTS_URL},${second.env.EVENTS_URL}` });
    try {
      const org = await createOrganization(gateway);
      const ports: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const echo: Echo = (
          await gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${org.api_key}` } })
        ).json();
        ports.push(echo.port); // the server that answered, not the Host header the gateway wrote
      }
      const replicaPorts = [first.env.EVENTS_URL, second.env.EVENTS_URL].map((url) => Number(new URL(String(url)).port));
      expect(ports.sort()).toEqual([...replicaPorts, ...replicaPorts].sort());
    } finally {
      await gateway.stop();
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('when a replica reports not ready (draining), then requests go to the others until it is ready again', async () => {
    let secondReady = true;
    const first = await startEchoUpstreams();
    const second = await startEchoUpstreams({ ready: () => secondReady });
    const gateway = await startGateway(
      { ...first.env, EVENTS_URL: `${first.env.EVENTS_URL},${second.env.EVENTS_URL}` },
      { tuning: { upstreamProbeMs: 50 } },
    );
    const portOf = (url: string | undefined) => Number(new URL(String(url)).port);
    try {
      const org = await createOrganization(gateway);
      const answered = async () => {
        const ports = new Set<number>();
        for (let i = 0; i < 6; i += 1) {
          const response = await gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${org.api_key}` } });
          ports.add(response.json<Echo>().port);
        }
        return [...ports].sort();
      };
      const both = [portOf(first.env.EVENTS_URL), portOf(second.env.EVENTS_URL)].sort();
      const until = async (expected: number[]) => {
        const ports = await answered();
        return JSON.stringify(ports) === JSON.stringify(expected) ? ports : undefined;
      };
      expect(await answered()).toEqual(both);
      secondReady = false;
      expect(await eventually(() => until([portOf(first.env.EVENTS_URL)]), 5000)).toEqual([portOf(first.env.EVENTS_URL)]);
      secondReady = true;
      expect(await eventually(() => until(both), 5000)).toEqual(both);
    } finally {
      await gateway.stop();
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('rate limiting', () => {
  it('when a key exceeds its limit, then 429 RATE_LIMITED with Retry-After, and other keys are unaffected', async () => {
    const gateway = await gatewayForThisTest((env) => startGateway({ ...env, RATE_LIMIT_MAX: '3' }));
    const [a, b] = [await createOrganization(gateway, 'A'), await createOrganization(gateway, 'B')];
    const call = (key: string) => gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i += 1) expect((await call(a.api_key)).statusCode).toBe(200);
    const limited = await call(a.api_key);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(b.api_key)).statusCode).toBe(200);
  });
});

describe('probes, docs and schema', () => {
  it('when probed, then /healthz and /readyz (database + NATS) answer, /openapi.json has the admin API, /asyncapi.json the events, Prisma mirrors the migrations', async () => {
    const gateway = await gatewayForThisTest((env) => startGateway(env));
    expect((await gateway.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await gateway.app.inject({ url: '/readyz' })).json()).toEqual({
      status: 'ok',
      checks: { accepting: 'ok', database: 'ok', nats: 'ok' },
    });
    const doc = (await gateway.app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toContain('/admin/v1/organizations');
    // The proxy catch-alls and the gateway's own ping are no operations of the API (the services' pings are).
    expect(Object.keys(doc.paths).filter((path) => path.includes('{*}') || path === '/api/v1/ping/gateway')).toEqual([]);
    expect((await gateway.app.inject({ url: '/docs' })).statusCode).toBe(200);
    // The domain events' AsyncAPI document: public (no key), JSON, one channel per subject.
    const asyncApi = await gateway.app.inject({ url: '/asyncapi.json' });
    expect(asyncApi.statusCode).toBe(200);
    expect(asyncApi.headers['content-type']).toMatch(/^application\/json/);
    expect(asyncApi.json()).toMatchObject({
      asyncapi: '3.0.0',
      channels: { 'bookings.booking.created': { address: 'bookings.booking.created' } },
      operations: { 'bookings.send.bookings.booking.created': { action: 'send' } },
    });
    expect(asyncApi.json(), 'the served document is the committed one: npm run asyncapi:snapshot').toEqual(
      JSON.parse(readFileSync(ASYNCAPI_SNAPSHOT, 'utf8')),
    );
    // The identity schema's migrations are the source of truth; the Prisma schema must mirror them.
    expect(await schemaDrift(gateway.infra.pool, SCHEMA, prismaDatamodel(PRISMA_SCHEMA))).toEqual([]);
  });
});
