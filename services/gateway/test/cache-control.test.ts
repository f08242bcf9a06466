import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startedForTests } from '@app/service-testing';
import { startEchoUpstreams, startStandIn } from './support/echo-upstreams.js';
import { ADMIN_TOKEN, createOrganization, startGateway } from './support/harness.js';

const CACHEABLE = 'public, max-age=600';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const upstreams = startedForTests(startEchoUpstreams, { stop: (started) => started.close() });
// Services that say their answers may be cached (and, on POST, that they replayed one): the gateway must overrule
// them on authenticated paths and leave them alone on public ones.
const cacheable = startedForTests(() =>
  startStandIn((app) =>
    app.all('/*', async (request, reply) => {
      void reply.header('cache-control', CACHEABLE);
      if (request.method === 'POST') void reply.code(201).header('idempotent-replayed', 'true');
      return { url: request.url };
    }),
  ),
);
const gateway = startedForTests(() => {
  const { url } = cacheable;
  return startGateway({ ...upstreams.env, BOOKINGS_URL: url, SCHEDULING_URL: url, CATALOG_URL: url, AUTH_FAILURES_MAX: '2' });
});

describe('POST /admin/v1/organizations', () => {
  it('when an organization, then a key, is created, and the creation is replayed, then every answer is Cache-Control: no-store', async () => {
    const key = randomUUID();
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      gateway.app.inject({ method: 'POST', url, headers: { ...admin, ...headers }, payload });

    const organization = await post('/admin/v1/organizations', { name: 'Cached Co' }, { 'idempotency-key': key });
    const replay = await post('/admin/v1/organizations', { name: 'Cached Co' }, { 'idempotency-key': key });
    const apiKey = await post(`/admin/v1/organizations/${String(organization.json().data.id)}/api-keys`, { name: 'ci' });
    const refused = await gateway.app.inject({ method: 'POST', url: '/admin/v1/organizations', payload: { name: 'X' } });

    expect(organization.statusCode).toBe(201);
    expect(organization.json().data.api_key).toMatch(/^sk_/);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(apiKey.statusCode).toBe(201);
    expect(refused.statusCode).toBe(401);
    for (const response of [organization, replay, apiKey, refused]) expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/v1/*', () => {
  it('when a proxied answer (a replay too) comes back, then it is no-store whatever the service said', async () => {
    const org = await createOrganization(gateway);
    const headers = { authorization: `Bearer ${org.api_key}` };

    const read = await gateway.app.inject({ url: '/api/v1/bookings', headers });
    const encoded = await gateway.app.inject({ url: '/%61pi/v1/bookings', headers });
    const replay = await gateway.app.inject({ method: 'POST', url: '/api/v1/bookings', headers, payload: {} });
    const ping = await gateway.app.inject({ url: '/api/v1/ping/gateway', headers });

    expect([read.statusCode, encoded.statusCode, replay.statusCode, ping.statusCode]).toEqual([200, 200, 201, 200]);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    for (const response of [read, encoded, replay, ping]) expect(response.headers['cache-control']).toBe('no-store');
  });

  it('when the gateway refuses (401 without a key, 404 for no route, 429 over AUTH_FAILURES_MAX), then the refusal is no-store', async () => {
    const org = await createOrganization(gateway);
    const guesser = { remoteAddress: '198.51.100.60' };

    const missing = await gateway.app.inject({ url: '/api/v1/bookings' });
    const noRoute = await gateway.app.inject({ url: '/api/v1/nowhere', headers: { authorization: `Bearer ${org.api_key}` } });
    for (let n = 0; n < 2; n++) {
      await gateway.app.inject({
        url: '/api/v1/bookings',
        headers: { authorization: `Bearer sk_guess${n}guessguessguessguess` },
        ...guesser,
      });
    }
    const limited = await gateway.app.inject({
      url: '/api/v1/bookings',
      headers: { authorization: 'Bearer sk_guessguessguess' },
      ...guesser,
    });

    expect([missing.statusCode, noRoute.statusCode, limited.statusCode]).toEqual([401, 404, 429]);
    for (const response of [missing, noRoute, limited]) expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/bookings/slots', () => {
  it('when the public slots or a media file are asked, then the service’s own caching goes through', async () => {
    const slots = await gateway.app.inject({ url: `/api/bookings/slots?schedule_id=${randomUUID()}` });
    const media = await gateway.app.inject({ url: '/media/file.png' });

    expect(slots.headers['cache-control']).toBe(CACHEABLE);
    expect(media.headers['cache-control']).toBe(CACHEABLE);
  });
});
