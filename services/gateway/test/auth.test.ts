import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createOrganization, gatewayBehindEchoes, startGateway } from './support/harness.js';

const UNAUTHORIZED = { error: 'Missing or invalid API key', code: 'UNAUTHORIZED' };

describe('API key authentication', () => {
  const fixture = gatewayBehindEchoes();

  it.each([
    ['no Authorization header', undefined],
    ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer without token', 'Bearer '],
    ['a token that is not an API key', 'Bearer hello'],
    ['an unknown key', 'Bearer sk_unknownunknownunknownunknown123'],
  ])('when the request has %s, then 401 UNAUTHORIZED', async (_case, authorization) => {
    const response = await fixture.gateway.app.inject({ url: '/api/v1/bookings', headers: authorization ? { authorization } : {} });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('when an unknown /api/v1 path is requested without a key, then 401 (nothing is revealed)', async () => {
    const response = await fixture.gateway.app.inject({ url: '/api/v1/secrets' });
    expect(response.statusCode).toBe(401);
  });

  it('when a valid key is used, then the request reaches the service', async () => {
    const org = await createOrganization(fixture.gateway);
    const response = await fixture.gateway.app.inject({ url: '/api/v1/bookings', headers: { authorization: `Bearer ${org.api_key}` } });
    expect(response.statusCode).toBe(200);
    expect(response.json().service).toBe('bookings');
  });

  it('when a key is revoked, then it is refused at once on this gateway', async () => {
    const org = await createOrganization(fixture.gateway);
    const second = await fixture.gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/organizations/${org.id}/api-keys`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { name: 'ci' },
    });
    expect(second.statusCode).toBe(201);
    const key = second.json().data;
    expect(key).toMatchObject({ name: 'ci', key: expect.stringMatching(/^sk_/) });
    const auth = { authorization: `Bearer ${key.key}` };
    expect((await fixture.gateway.app.inject({ url: '/api/v1/events', headers: auth })).statusCode).toBe(200);

    const revoked = await fixture.gateway.app.inject({
      method: 'DELETE',
      url: `/admin/v1/api-keys/${key.id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.json()).toEqual({ data: { id: key.id, revoked: true } });
    expect((await fixture.gateway.app.inject({ url: '/api/v1/events', headers: auth })).json()).toEqual(UNAUTHORIZED);
    // The organization's first key is untouched.
    expect(
      (await fixture.gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${org.api_key}` } })).statusCode,
    ).toBe(200);
  });

  it('when a key is revoked through another gateway replica, then this one refuses it within 5 s', async () => {
    const replica = await startGateway(fixture.upstreams.env);
    try {
      const org = await createOrganization(fixture.gateway);
      const auth = { authorization: `Bearer ${org.api_key}` };
      expect((await replica.app.inject({ url: '/api/v1/events', headers: auth })).statusCode).toBe(200); // now cached there
      const keyId = (await fixture.gateway.infra.pool.query('SELECT id FROM identity.api_keys WHERE organization_id = $1', [org.id]))
        .rows[0].id;
      await fixture.gateway.app.inject({
        method: 'DELETE',
        url: `/admin/v1/api-keys/${keyId}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 6000) {
        status = (await replica.app.inject({ url: '/api/v1/events', headers: auth })).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(401);
      // The cached entry expires at most 5 s after revocation; the slack covers polling and a request on a busy CI machine.
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(5000 + 1000);
    } finally {
      await replica.stop();
    }
  });

  it('when only a hash is stored, then the database never holds the key itself', async () => {
    const org = await createOrganization(fixture.gateway);
    const rows = (
      await fixture.gateway.infra.pool.query('SELECT key_hash, prefix FROM identity.api_keys WHERE organization_id = $1', [org.id])
    ).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(org.api_key);
  });
});

describe('admin API', () => {
  const fixture = gatewayBehindEchoes();

  it.each([undefined, 'Bearer wrong-token', 'Bearer sk_unknownunknownunknownunknown123'])(
    'when the admin token is %s, then 401',
    async (authorization) => {
      const response = await fixture.gateway.app.inject({
        method: 'POST',
        url: '/admin/v1/organizations',
        headers: authorization ? { authorization } : {},
        payload: { name: 'Nope' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Missing or invalid admin token', code: 'UNAUTHORIZED' });
    },
  );

  it('when an organization is created, then it has its timezone and a first key shown once', async () => {
    const org = await createOrganization(fixture.gateway, 'Berlin Studio', 'Europe/Berlin');
    expect(org).toMatchObject({
      id: expect.any(String),
      timezone: 'Europe/Berlin',
      api_key: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
    });
    expect(org.timezone).toBe('Europe/Berlin');
  });

  it('when the timezone is unknown or the name missing, then 400 VALIDATION_ERROR', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const badZone = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/organizations',
      headers,
      payload: { name: 'X', timezone: 'Mars/Olympus' },
    });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'timezone must be an IANA time zone name' });
    const noName = await fixture.gateway.app.inject({ method: 'POST', url: '/admin/v1/organizations', headers, payload: {} });
    expect(noName.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'name is required',
      details: [{ path: 'name', message: 'name is required' }],
    });
  });

  it('when the organization name is not UTF-8, holds a lone surrogate or a bidi control, then 400 naming the body or name', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const url = '/admin/v1/organizations';
    const notUtf8 = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const bytes = await fixture.gateway.app.inject({ method: 'POST', url, headers, payload: notUtf8 });
    expect(bytes.statusCode).toBe(400);
    expect(bytes.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'body must be valid UTF-8' });
    const surrogate = await fixture.gateway.app.inject({ method: 'POST', url, headers, payload: JSON.stringify({ name: 'Acme\ud800' }) });
    expect(surrogate.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'name must not contain lone surrogates (invalid Unicode)' });
    const bidi = await fixture.gateway.app.inject({ method: 'POST', url, headers, payload: JSON.stringify({ name: 'Acme\u202e' }) });
    expect(bidi.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: 'name must not contain bidirectional control characters' });
  });

  it('when a key is created with no body or with a name, then 201; with an unknown field, then 400', async () => {
    const org = await createOrganization(fixture.gateway, 'Keys');
    const url = `/admin/v1/organizations/${org.id}/api-keys`;
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const bare = await fixture.gateway.app.inject({ method: 'POST', url, headers });
    expect(bare.statusCode).toBe(201);
    expect(bare.json().data).toMatchObject({ name: null, key: expect.stringMatching(/^sk_/) });
    const named = await fixture.gateway.app.inject({ method: 'POST', url, headers, payload: { name: 'ci' } });
    expect(named.json().data.name).toBe('ci');
    const unknown = await fixture.gateway.app.inject({ method: 'POST', url, headers, payload: { name: 'ci', scope: 'all' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('VALIDATION_ERROR');
  });

  it('when a key is created for an unknown or malformed organization id, then 404', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await fixture.gateway.app.inject({
        method: 'POST',
        url: `/admin/v1/organizations/${id}/api-keys`,
        headers,
        payload: {},
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });

  it('when revoking an unknown key, then 404', async () => {
    const response = await fixture.gateway.app.inject({
      method: 'DELETE',
      url: '/admin/v1/api-keys/00000000-0000-4000-8000-000000000000',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.statusCode).toBe(404);
  });
});
