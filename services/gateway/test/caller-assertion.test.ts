import { randomBytes } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { describe, expect, inject, it } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import { ConfigError, loadConfig } from '@app/service-kit';
import { callerAssertion } from '@app/service-testing';
import { configSchema } from '../src/config.js';
import { assertionMinter } from '../src/proxy/caller-assertion.js';
import { SERVICE_NAMES } from '../src/proxy/route-table.js';
import { assertionOf, type Echo } from './support/echo-upstreams.js';
import { createOrganization, gatewayBehindEchoes } from './support/harness.js';
import { createKey } from './support/api-keys.js';

describe('caller assertions minted by the gateway', () => {
  const fixture = gatewayBehindEchoes();
  const echoOf = async (url: string, headers: Record<string, string> = {}) =>
    (await fixture.gateway.app.inject({ url, headers })).json() as Echo;

  it('when a keyed request is proxied, then it carries an HS256 assertion for that service of the key’s organization, zone and key; the request id beside it', async () => {
    const org = await createOrganization(fixture.gateway, 'Minted Co', 'Europe/Berlin');
    const echo = await echoOf('/api/v1/events', { authorization: `Bearer ${org.api_key}`, 'x-request-id': 'req-minted-1' });
    const { payload, protectedHeader } = await assertionOf(echo);

    expect(echo.service).toBe('events');
    expect(protectedHeader).toMatchObject({ alg: 'HS256', kid: inject('callerAssertionKeyId') });
    expect(payload).toMatchObject({
      iss: 'gateway',
      aud: 'events',
      organization_id: org.id,
      timezone: 'Europe/Berlin',
      key_type: 'secret',
    });
    expect(payload).not.toHaveProperty('request_id');
    expect(echo.headers['x-request-id']).toBe('req-minted-1');
    expect(payload.api_key_id).toEqual(expect.any(String));
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
  });

  it('when one key calls twice, then both requests carry the same assertion (reused), each with its own request id', async () => {
    const org = await createOrganization(fixture.gateway);
    const first = await echoOf('/api/v1/bookings', { authorization: `Bearer ${org.api_key}`, 'x-request-id': 'reuse-1' });
    const second = await echoOf('/api/v1/bookings?page=2', { authorization: `Bearer ${org.api_key}`, 'x-request-id': 'reuse-2' });

    expect(second.headers[CALLER_ASSERTION_HEADER]).toBe(first.headers[CALLER_ASSERTION_HEADER]);
    expect([first.headers['x-request-id'], second.headers['x-request-id']]).toEqual(['reuse-1', 'reuse-2']);
  });

  it('when another service, another key or other scopes are asked for, then each gets an assertion of its own', async () => {
    const [org, other] = [await createOrganization(fixture.gateway), await createOrganization(fixture.gateway)];
    const readOnly = await createKey(fixture.gateway, org.api_key, { name: 'read', type: 'restricted', scopes: ['bookings:read'] });
    const readWrite = await createKey(fixture.gateway, org.api_key, { name: 'write', type: 'restricted', scopes: ['bookings:write'] });
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    const echoes = [
      await echoOf('/api/v1/bookings', bearer(org.api_key)),
      await echoOf('/api/v1/ping/catalog', bearer(org.api_key)),
      await echoOf('/api/v1/bookings', bearer(other.api_key)),
      await echoOf('/api/v1/bookings', bearer(readOnly.key)),
      await echoOf('/api/v1/bookings', bearer(readWrite.key)),
    ];
    const tokens = echoes.map((echo) => echo.headers[CALLER_ASSERTION_HEADER]);
    expect(new Set(tokens).size).toBe(tokens.length);

    const payloads = await Promise.all(echoes.map(async (echo) => (await assertionOf(echo)).payload));
    expect(payloads.map((payload) => [payload.aud, payload.organization_id, payload.scopes])).toEqual([
      ['bookings', org.id, undefined],
      ['catalog', org.id, undefined],
      ['bookings', other.id, undefined],
      ['bookings', org.id, ['bookings:read']],
      ['bookings', org.id, ['bookings:write']],
    ]);
  });

  it('when an assertion for bookings is checked with catalog’s secret, then it does not verify (one secret per service)', async () => {
    const org = await createOrganization(fixture.gateway);
    const echo = await echoOf('/api/v1/bookings', { authorization: `Bearer ${org.api_key}` });
    await expect(assertionOf({ ...echo, service: 'catalog' })).rejects.toThrow();
  });

  it('when a public route is called without a key, then its assertion names no organization', async () => {
    const { payload } = await assertionOf(await echoOf('/api/bookings/slots?scheduleId=x'));

    expect(payload.aud).toBe('scheduling');
    expect(payload).not.toHaveProperty('organization_id');
    expect(payload).not.toHaveProperty('api_key_id');
  });

  it('when a client sends an x-caller-assertion of its own, then it is replaced by the gateway’s', async () => {
    const forged = callerAssertion({ organizationId: '11111111-1111-4111-8111-111111111111' }, { audience: 'scheduling' });
    const echo = await echoOf('/api/bookings/slots?scheduleId=x', { [CALLER_ASSERTION_HEADER]: forged });
    const token = echo.headers[CALLER_ASSERTION_HEADER];

    expect(token).not.toBe(forged);
    expect((await assertionOf(echo)).payload).not.toHaveProperty('organization_id');
    expect(decodeProtectedHeader(String(token)).kid).toBe(inject('callerAssertionKeyId'));
  });
});

describe('the gateway’s store of minted assertions', () => {
  const keys = () =>
    JSON.stringify(
      Object.fromEntries(SERVICE_NAMES.map((service) => [service, { kid: 'k1', secret: randomBytes(32).toString('base64url') }])),
    );
  const identity = (n: number) => ({
    apiKey: {
      organizationId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      timezone: 'UTC',
      apiKeyId: `key-${n}`,
      type: 'secret' as const,
      scopes: null,
      allowedOrigins: null,
    },
  });

  it('when more keys call than it holds, then it stays at its bound (the oldest are minted again when they come back)', () => {
    const minter = assertionMinter(loadConfig(configSchema, { NODE_ENV: 'test', CALLER_ASSERTION_SIGNING_KEYS: keys() }), { max: 4 });
    const tokens = Array.from({ length: 10 }, (_, n) => minter.mint(identity(n), 'bookings'));
    expect(new Set(tokens).size).toBe(10);
    expect(minter.cached).toBe(4);
    expect(minter.mint(identity(0), 'catalog')).not.toBe(tokens[0]);
    expect(minter.cached).toBe(4);
  });

  it('when a service has no key, or two services share a secret, then the gateway does not start', () => {
    const all = JSON.parse(keys()) as Record<string, { kid: string; secret: string }>;
    const { webhooks: _missing, ...partial } = all;
    const shared = { ...all, catalog: all.bookings };
    for (const [value, message] of [
      [undefined, /CALLER_ASSERTION_SIGNING_KEYS: needs a key for bookings/],
      [JSON.stringify(partial), /needs a key for webhooks/],
      [JSON.stringify(shared), /the same secret/],
    ] as const) {
      const config = loadConfig(configSchema, {
        NODE_ENV: 'test',
        ...(value === undefined ? {} : { CALLER_ASSERTION_SIGNING_KEYS: value }),
      });
      expect(() => assertionMinter(config)).toThrow(ConfigError);
      expect(() => assertionMinter(config)).toThrow(message);
    }
  });

  it.each([
    ['not JSON', 'REPLACE_ME'],
    ['a short secret', JSON.stringify({ bookings: { kid: 'k1', secret: 'short' } })],
    ['a kid with spaces', JSON.stringify({ bookings: { kid: 'a b', secret: randomBytes(32).toString('base64url') } })],
    ['an unknown field', JSON.stringify({ bookings: { kid: 'k1', secret: randomBytes(32).toString('base64url'), alg: 'none' } })],
  ])('when CALLER_ASSERTION_SIGNING_KEYS is %s, then the config is refused naming it', (_case, value) => {
    expect(() => loadConfig(configSchema, { NODE_ENV: 'test', CALLER_ASSERTION_SIGNING_KEYS: value })).toThrow(
      /CALLER_ASSERTION_SIGNING_KEYS/,
    );
  });
});
