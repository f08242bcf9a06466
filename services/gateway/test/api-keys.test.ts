import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { describeConditionalRequests, recordRequests } from '@app/service-testing';
import { ADMIN_TOKEN, createOrganization, gatewayBehindEchoes, startGateway } from './support/harness.js';
import { createKey, postApiKey } from './support/api-keys.js';

const RECORD_FIELDS = ['allowed_origins', 'created_at', 'id', 'last_used_at', 'name', 'prefix', 'scopes', 'type'];

describe('managing keys with a secret key (/api/v1/api-keys)', () => {
  const fixture = gatewayBehindEchoes();

  it('when a key of each kind is created, then it looks like its kind, its prefix is its first 12 characters and it is shown once', async () => {
    const org = await createOrganization(fixture.gateway);
    const bodies = {
      secret: { name: 'back office' },
      restricted: { name: 'reports', type: 'restricted', scopes: ['bookings:read'] },
      publishable: { name: 'shop', type: 'publishable', allowed_origins: ['https://shop.example.com', 'http://localhost:5173'] },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const response = await postApiKey(fixture.gateway, org.api_key, body);
      expect(response.statusCode).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const created = response.json().data;
      expect(Object.keys(created).sort()).toEqual([...RECORD_FIELDS, 'key'].sort());
      expect(created.type).toBe(type);
      expect(created.key).toMatch(new RegExp(`^${type[0]}k_[A-Za-z0-9_-]{43}$`));
      expect(created.prefix).toBe(created.key.slice(0, 12));
      expect(created.scopes).toEqual(type === 'restricted' ? ['bookings:read'] : null);
      expect(created.allowed_origins).toEqual(type === 'publishable' ? bodies.publishable.allowed_origins : null);
      expect(created.last_used_at).toBeNull();

      const read = await fixture.gateway.app.inject({
        url: `/api/v1/api-keys/${created.id}`,
        headers: { authorization: `Bearer ${org.api_key}` },
      });
      expect(read.statusCode).toBe(200);
      const { key: _key, ...record } = created;
      expect(read.json().data).toEqual(record);
      expect(read.body).not.toContain(created.key);
    }
  });

  it('when the body breaks the kinds’ rules, then it is a 400 naming the field', async () => {
    const org = await createOrganization(fixture.gateway);
    const refused: [unknown, string][] = [
      [{}, 'name is required'],
      [{ name: 'x', type: 'master' }, 'type'],
      [{ name: 'x', type: 'restricted' }, 'scopes is required'],
      [{ name: 'x', type: 'restricted', scopes: [] }, 'scopes must name at least one scope'],
      [{ name: 'x', type: 'restricted', scopes: ['bookings:read', 'bookings:delete'] }, 'scopes has unknown scope bookings:delete'],
      [{ name: 'x', scopes: ['bookings:read'] }, 'scopes is only for restricted keys'],
      [{ name: 'x', type: 'publishable' }, 'allowed_origins is required'],
      [{ name: 'x', type: 'publishable', allowed_origins: [] }, 'allowed_origins must list at least one origin'],
      [{ name: 'x', type: 'publishable', allowed_origins: ['http://shop.example.com'] }, 'allowed_origins has http://shop.example.com'],
      [
        { name: 'x', type: 'publishable', allowed_origins: ['https://shop.example.com/path'] },
        'allowed_origins has https://shop.example.com/path',
      ],
      [{ name: 'x', type: 'publishable', allowed_origins: ['*', 'https://a.example'] }, 'allowed_origins must be the single entry *'],
      [
        { name: 'x', type: 'publishable', allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) },
        'allowed_origins must list at most 20 origins',
      ],
      [{ name: 'x', type: 'secret', allowed_origins: ['*'] }, 'allowed_origins is only for publishable keys'],
    ];
    for (const [body, message] of refused) {
      const response = await postApiKey(fixture.gateway, org.api_key, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
      expect(response.json().error).toContain(message);
    }
    for (const origins of [['*'], ['https://shop.example.com:8443', 'http://localhost']]) {
      expect(
        (await postApiKey(fixture.gateway, org.api_key, { name: 'ok', type: 'publishable', allowed_origins: origins })).statusCode,
      ).toBe(201);
    }
  });

  it('when keys are listed, then only live keys of the organization show, without the keys, in pages', async () => {
    const org = await createOrganization(fixture.gateway);
    const other = await createOrganization(fixture.gateway, 'Other');
    await createKey(fixture.gateway, other.api_key, { name: 'theirs' });
    const kept = await createKey(fixture.gateway, org.api_key, { name: 'kept' });
    const gone = await createKey(fixture.gateway, org.api_key, { name: 'gone' });
    const auth = { authorization: `Bearer ${org.api_key}` };
    expect((await fixture.gateway.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${gone.id}`, headers: auth })).json()).toEqual({
      data: { id: gone.id, revoked: true },
    });
    const list = await fixture.gateway.app.inject({ url: '/api/v1/api-keys', headers: auth });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.json().data.map((key: { name: string }) => key.name)).toEqual(['default', 'kept']);
    expect(list.json().meta).toMatchObject({ total: 2, limit: 50, offset: 0, hasMore: false });
    expect(list.body).not.toContain(kept.key);
    const page = await fixture.gateway.app.inject({ url: '/api/v1/api-keys?limit=1&offset=1', headers: auth });
    expect(page.json().data.map((key: { id: string }) => key.id)).toEqual([kept.id]);
    expect((await fixture.gateway.app.inject({ url: '/api/v1/api-keys?limit=500', headers: auth })).statusCode).toBe(400);
    // Revoked, another organization's, or not an id at all: 404.
    for (const id of [gone.id, (await createKey(fixture.gateway, other.api_key, { name: 'x' })).id, 'not-a-uuid']) {
      expect((await fixture.gateway.app.inject({ url: `/api/v1/api-keys/${id}`, headers: auth })).statusCode).toBe(404);
      expect((await fixture.gateway.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: auth })).statusCode).toBe(404);
    }
  });

  it('when a restricted or publishable key manages keys, then it is 403 FORBIDDEN', async () => {
    const org = await createOrganization(fixture.gateway);
    const restricted = await createKey(fixture.gateway, org.api_key, { name: 'r', type: 'restricted', scopes: ['webhooks:write'] });
    const publishable = await createKey(fixture.gateway, org.api_key, { name: 'p', type: 'publishable', allowed_origins: ['*'] });
    for (const key of [restricted.key, publishable.key]) {
      const auth = { authorization: `Bearer ${key}` };
      for (const request of [
        { method: 'POST' as const, url: '/api/v1/api-keys', payload: { name: 'escalate' } },
        { method: 'GET' as const, url: '/api/v1/api-keys' },
        { method: 'GET' as const, url: `/api/v1/api-keys/${restricted.id}` },
        { method: 'DELETE' as const, url: `/api/v1/api-keys/${restricted.id}` },
      ]) {
        const response = await fixture.gateway.app.inject({ ...request, headers: auth });
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(403);
        expect(response.json()).toEqual({ error: 'This key cannot manage API keys', code: 'FORBIDDEN' });
      }
    }
    const count = await fixture.gateway.infra.pool.query('SELECT count(*)::int AS n FROM identity.api_keys WHERE organization_id = $1', [
      org.id,
    ]);
    expect(count.rows[0].n).toBe(3);
  });

  it('when one key is revoked by many requests at once, then exactly one revokes it and the others are 404', async () => {
    const org = await createOrganization(fixture.gateway);
    const doomed = await createKey(fixture.gateway, org.api_key, { name: 'doomed' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        fixture.gateway.app.inject({
          method: 'DELETE',
          url: `/api/v1/api-keys/${doomed.id}`,
          headers: { authorization: `Bearer ${org.api_key}` },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array.from({ length: 11 }, () => 404)]);
    const events = await fixture.gateway.infra.pool.query(
      `SELECT count(*)::int AS n FROM identity.outbox WHERE subject = 'identity.api_key.revoked' AND payload->'data'->>'id' = $1`,
      [doomed.id],
    );
    expect(events.rows[0].n).toBe(1);
  });

  it('when the same Idempotency-Key is sent twice, then one key is created and the first answer replayed', async () => {
    const org = await createOrganization(fixture.gateway);
    const headers = { authorization: `Bearer ${org.api_key}`, 'idempotency-key': `k-${org.id}` };
    const post = (payload: object) => fixture.gateway.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers, payload });
    const first = await post({ name: 'once' });
    const again = await post({ name: 'once' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.json()).toEqual(first.json());
    expect((await post({ name: 'other' })).json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('when a key is revoked through another replica, then this one refuses it within 5 s', async () => {
    const replica = await startGateway(fixture.upstreams.env);
    try {
      const org = await createOrganization(fixture.gateway);
      const doomed = await createKey(fixture.gateway, org.api_key, { name: 'doomed', type: 'restricted', scopes: ['events:read'] });
      const auth = { authorization: `Bearer ${doomed.key}` };
      expect((await replica.app.inject({ url: '/api/v1/events', headers: auth })).statusCode).toBe(200); // cached there now
      const revoke = await fixture.gateway.app.inject({
        method: 'DELETE',
        url: `/api/v1/api-keys/${doomed.id}`,
        headers: { authorization: `Bearer ${org.api_key}` },
      });
      expect(revoke.statusCode).toBe(200);
      expect((await fixture.gateway.app.inject({ url: '/api/v1/events', headers: auth })).statusCode).toBe(401); // at once here
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 6000) {
        status = (await replica.app.inject({ url: '/api/v1/events', headers: auth })).statusCode;
        if (status === 200) await sleep(50);
      }
      expect(status).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(5000 + 1000);
    } finally {
      await replica.stop();
    }
  });
});

describe('last_used_at', () => {
  const fixture = gatewayBehindEchoes();

  it('when a key is used, then last_used_at shows it within the writer’s interval, written at most once a minute', async () => {
    const org = await createOrganization(fixture.gateway);
    const used = await createKey(fixture.gateway, org.api_key, { name: 'used', type: 'restricted', scopes: ['events:read'] });
    const before = Date.now();
    for (let i = 0; i < 20; i += 1) {
      expect(
        (await fixture.gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${used.key}` } })).statusCode,
      ).toBe(200);
    }
    const read = async () =>
      (await fixture.gateway.app.inject({ url: `/api/v1/api-keys/${used.id}`, headers: { authorization: `Bearer ${org.api_key}` } })).json()
        .data.last_used_at as string | null;
    let lastUsed = await read();
    while (lastUsed === null && Date.now() - before < 10_000) {
      await sleep(200);
      lastUsed = await read();
    }
    expect(lastUsed).not.toBeNull();
    expect(Date.parse(lastUsed ?? '')).toBeGreaterThanOrEqual(before - 1000);
    // Used again within the minute: not written again.
    await fixture.gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${used.key}` } });
    await sleep(6000);
    expect(await read()).toBe(lastUsed);
  }, 30_000);

  it('when the gateway stops, then the keys used since the last write are written', async () => {
    const gateway = await startGateway(fixture.upstreams.env, { tuning: { lastUsedFlushMs: 60_000 } });
    const org = await createOrganization(gateway);
    await gateway.app.inject({ url: '/api/v1/events', headers: { authorization: `Bearer ${org.api_key}` } });
    const lastUsed = () =>
      fixture.gateway.infra.pool.query('SELECT last_used_at FROM identity.api_keys WHERE organization_id = $1', [org.id]);
    expect((await lastUsed()).rows[0].last_used_at).toBeNull();
    await gateway.stop();
    expect((await lastUsed()).rows[0].last_used_at).toBeInstanceOf(Date);
  });
});

describe('the admin API takes the same body', () => {
  const fixture = gatewayBehindEchoes();
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('when the admin creates keys of each kind (secret by default, no body at all too), then they are as /api/v1 makes them', async () => {
    const org = await createOrganization(fixture.gateway);
    const post = (payload?: object) =>
      fixture.gateway.app.inject({
        method: 'POST',
        url: `/admin/v1/organizations/${org.id}/api-keys`,
        headers: admin,
        ...(payload ? { payload } : {}),
      });
    const bare = await post();
    expect(bare.statusCode).toBe(201);
    expect(bare.json().data).toMatchObject({ type: 'secret', name: null, scopes: null, allowed_origins: null });
    expect(bare.json().data.key).toMatch(/^sk_/);
    const restricted = (await post({ name: 'r', type: 'restricted', scopes: ['products:write'] })).json().data;
    expect(restricted).toMatchObject({ type: 'restricted', scopes: ['products:write'] });
    expect(restricted.key).toMatch(/^rk_/);
    expect(restricted.prefix).toBe(restricted.key.slice(0, 12));
    const publishable = (await post({ type: 'publishable', allowed_origins: ['https://shop.example.com'] })).json().data;
    expect(publishable).toMatchObject({ type: 'publishable', allowed_origins: ['https://shop.example.com'] });
    const refused = await post({ type: 'restricted', scopes: ['nothing:read'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('scopes has unknown scope nothing:read');
  });
});

describe('conditional requests on keys', () => {
  const fixture = gatewayBehindEchoes();

  describeConditionalRequests([
    {
      // A key changes only when it is used (its last_used_at); the writer's minute is stood in for by writing it.
      name: 'an API key',
      has: { get: true, remove: true, change: true },
      async arrange() {
        const org = await createOrganization(fixture.gateway);
        const key = (await postApiKey(fixture.gateway, org.api_key, { name: 'integration' })).json().data as { id: string };
        const calls = recordRequests(fixture.gateway.app, { authorization: `Bearer ${org.api_key}` }, `/api/v1/api-keys/${key.id}`);
        return {
          get: calls.get,
          remove: calls.remove,
          async change() {
            await fixture.gateway.infra.pool.query(
              "UPDATE identity.api_keys SET last_used_at = coalesce(last_used_at, now()) + interval '1 minute' WHERE id = $1",
              [key.id],
            );
          },
          state: calls.data,
        };
      },
    },
  ]);
});
