import { describe, expect, it } from 'vitest';
import { assertionOf as verifiedAssertionOf, type Echo } from './support/echo-upstreams.js';
import { createOrganization, gatewayBehindEchoes, gatewayForThisTest, startGateway } from './support/harness.js';
import { createKey } from './support/api-keys.js';

const SHOP = 'https://shop.example.com';
const ID = '8a3f9c2e-1b4d-4e5f-9a6b-7c8d9e0f1a2b';

const assertionOf = async (echo: Echo) => (await verifiedAssertionOf(echo)).payload;

describe('restricted keys at the gateway', () => {
  const fixture = gatewayBehindEchoes();

  it('when a restricted key calls, then reads need read, writes need write, and write includes read', async () => {
    const org = await createOrganization(fixture.gateway);
    const restricted = await createKey(fixture.gateway, org.api_key, {
      name: 'integration',
      type: 'restricted',
      scopes: ['bookings:read', 'products:write'],
    });
    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string) =>
      fixture.gateway.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${restricted.key}` },
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
    const served: [Parameters<typeof call>[0], string][] = [
      ['GET', '/api/v1/bookings'],
      ['GET', `/api/v1/bookings/${ID}`],
      ['GET', '/api/v1/products'],
      ['POST', '/api/v1/products'],
      ['PATCH', `/api/v1/products/${ID}/images/${ID}`],
      ['GET', '/api/v1/ping/events'], // no resource: any key of the organization
    ];
    for (const [method, url] of served) {
      const response = await call(method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(200);
      expect((response.json() as Echo).url).toBe(url); // it reached the service
    }
    const refused: [Parameters<typeof call>[0], string, string][] = [
      ['POST', '/api/v1/bookings', 'This key lacks the bookings:write scope'],
      ['DELETE', `/api/v1/bookings/${ID}`, 'This key lacks the bookings:write scope'],
      ['GET', '/api/v1/schedules', 'This key lacks the schedules:read scope'],
      ['POST', `/api/v1/events/${ID}/registrations`, 'This key lacks the registrations:write scope'],
      ['GET', '/api/v1/changes', 'This key lacks the changes:read scope'],
      ['GET', '/api/v1/bookings/not/an/operation', 'Only secret keys can call this operation'],
    ];
    for (const [method, url, message] of refused) {
      const response = await call(method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ error: message, code: 'FORBIDDEN' });
    }
  });

  it('when a key is proxied, then the caller assertion carries its kind, and a restricted key’s scopes', async () => {
    const org = await createOrganization(fixture.gateway);
    const restricted = await createKey(fixture.gateway, org.api_key, { name: 'r', type: 'restricted', scopes: ['events:read'] });
    const publishable = await createKey(fixture.gateway, org.api_key, { name: 'p', type: 'publishable', allowed_origins: [SHOP] });
    const echoed = async (key: string) =>
      assertionOf((await fixture.gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${key}` } })).json());
    expect(await echoed(org.api_key)).toMatchObject({ key_type: 'secret' });
    expect((await echoed(org.api_key)).scopes).toBeUndefined();
    expect(await echoed(restricted.key)).toMatchObject({ key_type: 'restricted', scopes: ['events:read'], api_key_id: restricted.id });
    expect(await echoed(publishable.key)).toMatchObject({ key_type: 'publishable', api_key_id: publishable.id });
    expect((await echoed(publishable.key)).scopes).toBeUndefined();
  });
});

describe('publishable keys at the gateway', () => {
  const fixture = gatewayBehindEchoes({ CORS_ORIGINS: 'https://backoffice.example.com' });

  async function publishableKey(origins: string[] = [SHOP]) {
    const org = await createOrganization(fixture.gateway);
    return createKey(fixture.gateway, org.api_key, { name: 'shop front', type: 'publishable', allowed_origins: origins });
  }

  it('when a publishable key calls anything but the public operations, then it is 403 with the exact message', async () => {
    const key = await publishableKey();
    const auth = { authorization: `Bearer ${key.key}` };
    for (const [method, url] of [
      ['GET', '/api/v1/bookings'],
      ['POST', '/api/v1/schedules'],
      ['PATCH', `/api/v1/schedules/${ID}`],
      ['GET', '/api/v1/media'],
      ['POST', '/api/v1/products'],
      ['GET', '/api/v1/webhook-endpoints'],
      ['GET', '/api/v1/changes'],
      ['GET', '/api/v1/ping/bookings'],
      ['GET', `/api/v1/events/${ID}/registrations`],
    ] as const) {
      const response = await fixture.gateway.app.inject({
        method,
        url,
        headers: { ...auth, origin: SHOP },
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ error: 'Publishable keys cannot call this operation', code: 'FORBIDDEN' });
      // From a listed origin: the page can read why.
      expect(response.headers['access-control-allow-origin']).toBe(SHOP);
    }
    for (const [method, url] of [
      ['GET', `/api/v1/schedules/${ID}`],
      ['POST', '/api/v1/bookings'],
      ['GET', `/api/v1/bookings/${ID}?client_secret=cs_x`],
      ['PATCH', `/api/v1/bookings/${ID}`],
      ['DELETE', `/api/v1/bookings/${ID}`],
      ['GET', '/api/v1/event-types'],
      ['GET', `/api/v1/products/${ID}/images`],
      ['DELETE', `/api/v1/events/${ID}/registrations/${ID}`],
      ['GET', `/api/bookings/slots?scheduleId=${ID}`],
    ] as const) {
      const response = await fixture.gateway.app.inject({
        method,
        url,
        headers: auth,
        ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(200);
    }
  });

  it('when the Origin is not one the key lists, then it is 403 ORIGIN_NOT_ALLOWED; a listed one is echoed; none is served', async () => {
    const key = await publishableKey([SHOP, 'http://localhost:5173']);
    const get = (headers: Record<string, string>) =>
      fixture.gateway.app.inject({ url: '/api/v1/event-types', headers: { authorization: `Bearer ${key.key}`, ...headers } });
    for (const origin of [
      'https://evil.example.com',
      'https://shop.example.com:8443',
      'http://shop.example.com',
      'http://localhost:3000',
    ]) {
      const refused = await get({ origin });
      expect(refused.statusCode, origin).toBe(403);
      expect(refused.json()).toEqual({ error: 'This key may not be used from this origin', code: 'ORIGIN_NOT_ALLOWED' });
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    }
    for (const origin of [SHOP, 'http://localhost:5173']) {
      const allowed = await get({ origin });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe(origin);
      expect(String(allowed.headers.vary)).toMatch(/origin/i);
      expect(String(allowed.headers['access-control-expose-headers'])).toContain('x-request-id');
    }
    expect((await get({})).statusCode).toBe(200); // a server, a test
    expect((await get({})).headers['access-control-allow-origin']).toBeUndefined();

    const anywhere = await publishableKey(['*']);
    const fromAnywhere = await fixture.gateway.app.inject({
      url: '/api/v1/products',
      headers: { authorization: `Bearer ${anywhere.key}`, origin: 'https://any.example.org' },
    });
    expect(fromAnywhere.statusCode).toBe(200);
    expect(fromAnywhere.headers['access-control-allow-origin']).toBe('https://any.example.org');
  });

  it('when a browser sends a preflight for a public operation, then any origin gets 204 with the operation’s methods and headers', async () => {
    const preflight = (url: string, method: string, origin = 'https://anyone.example.net') =>
      fixture.gateway.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      });
    const booking = await preflight(`/api/v1/bookings/${ID}`, 'PATCH');
    expect(booking.statusCode).toBe(204);
    expect(booking.headers['access-control-allow-origin']).toBe('https://anyone.example.net');
    expect(String(booking.headers['access-control-allow-methods']).split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
    const allowedHeaders = String(booking.headers['access-control-allow-headers']).split(/,\s*/);
    expect(allowedHeaders).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'if-match', 'if-none-match']),
    );
    expect(String(booking.headers.vary)).toMatch(/origin/i);

    const create = await preflight('/api/v1/bookings', 'POST');
    expect(create.statusCode).toBe(204);
    expect(String(create.headers['access-control-allow-methods'])).toBe('POST');
    // Not a public operation: no CORS (the origin is not in CORS_ORIGINS either).
    for (const [url, method] of [
      ['/api/v1/bookings', 'GET'],
      ['/api/v1/schedules', 'POST'],
      [`/api/v1/schedules/${ID}`, 'PATCH'],
      ['/api/v1/api-keys', 'POST'],
    ]) {
      expect((await preflight(url as string, method as string)).headers['access-control-allow-origin'], `${method} ${url}`).toBeUndefined();
    }
    // The public slots too, though this origin is not in CORS_ORIGINS (a key-less GET from it still gets no CORS).
    const slots = await preflight(`/api/bookings/slots?scheduleId=${ID}`, 'GET');
    expect(slots.statusCode).toBe(204);
    expect(slots.headers['access-control-allow-origin']).toBe('https://anyone.example.net');
    const keyless = await fixture.gateway.app.inject({
      url: `/api/bookings/slots?scheduleId=${ID}`,
      headers: { origin: 'https://anyone.example.net' },
    });
    expect(keyless.headers['access-control-allow-origin']).toBeUndefined();
    // An origin of CORS_ORIGINS keeps its wider answer on /api/v1.
    const backOffice = await preflight('/api/v1/schedules', 'POST', 'https://backoffice.example.com');
    expect(backOffice.headers['access-control-allow-origin']).toBe('https://backoffice.example.com');
  });
});

describe('the per-key-and-IP limit of publishable keys', () => {
  it('when one visitor goes over PUBLISHABLE_RATE_LIMIT_MAX, then they get 429 with Retry-After while another visitor and a secret key are served', async () => {
    const gateway = await gatewayForThisTest((env) => startGateway({ ...env, PUBLISHABLE_RATE_LIMIT_MAX: '5', TRUST_PROXY: 'loopback' }));
    const org = await createOrganization(gateway);
    const key = await createKey(gateway, org.api_key, { name: 'shop', type: 'publishable', allowed_origins: ['*'] });
    const from = (ip: string, bearer = key.key) =>
      gateway.app.inject({ url: '/api/v1/products', headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': ip } });
    const first = await Promise.all(Array.from({ length: 5 }, () => from('203.0.113.1')));
    expect(first.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const over = await from('203.0.113.1');
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('RATE_LIMITED');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.2')).statusCode).toBe(200); // another visitor of the same shop
    for (let i = 0; i < 6; i += 1) expect((await from('203.0.113.1', org.api_key)).statusCode).toBe(200); // secret key: its own limit
    const other = await createKey(gateway, org.api_key, { name: 'other shop', type: 'publishable', allowed_origins: ['*'] });
    expect((await from('203.0.113.1', other.key)).statusCode).toBe(200); // per key too
  });
});
