import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CALLER_ASSERTION_HEADER } from '@app/contracts';
import {
  baseConfigSchema,
  buildService,
  ConfigError,
  loadConfig,
  optionalCallerOf,
  type CallerAssertionPublicKeys,
  type ServiceApp,
} from '../src/index.js';
import { useCallerAssertionKeys } from '../src/http/caller-assertion.js';
import { anonymousHeaders, callerAssertion, generateCallerAssertionKeys, keyKindHeaders, organizationHeaders } from '@app/service-testing';
import { silentLog, useRunCallerKeys } from './support/kit-env.js';

const UNAUTHORIZED = { error: 'Missing or invalid API key', code: 'UNAUTHORIZED' };
const assertion = (value: string) => ({ [CALLER_ASSERTION_HEADER]: value });

describe('caller assertions on a service', () => {
  let app: ServiceApp;
  const organization = randomUUID();

  beforeAll(async () => {
    app = await buildService({ name: 'kit-assert', log: silentLog, readiness: [{ name: 'database', check: async () => undefined }] });
    useRunCallerKeys(app);
    app.get('/public', async (request) => ({ caller: optionalCallerOf(request) }));
    // Two operations of the key table: one of the publishable keys' public ones, and one that needs bookings:read.
    app.get('/kit-public', { schema: { operationId: 'getSchedule' } }, async () => ({ ok: true }));
    app.get('/kit-bookings', { schema: { operationId: 'listBookings' } }, async () => ({ ok: true }));
    app.post('/kit-bookings', { schema: { operationId: 'createBooking' } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  describe('the kind of the key (the same table as the gateway: a request that reached the service some other way)', () => {
    const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string>) => app.inject({ method, url, headers });
    const forbidden = (error: string) => ({ error, code: 'FORBIDDEN' });

    it('when a publishable key calls a public operation, then it runs; any other, 403 FORBIDDEN', async () => {
      const publishable = keyKindHeaders(organization, 'publishable');
      expect((await call('GET', '/kit-public', publishable)).statusCode).toBe(200);
      const refused = await call('GET', '/kit-bookings', publishable);
      expect([refused.statusCode, refused.json()]).toEqual([403, forbidden('Publishable keys cannot call this operation')]);
      // The ping is no public operation.
      expect((await ping(publishable)).statusCode).toBe(403);
    });

    it('when a restricted key calls, then its scopes decide (write includes read), and a secret key may call all', async () => {
      expect((await call('GET', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['bookings:read']))).statusCode).toBe(200);
      expect((await call('POST', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['bookings:write']))).statusCode).toBe(200);
      const readOnly = await call('POST', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['bookings:read']));
      expect([readOnly.statusCode, readOnly.json()]).toEqual([403, forbidden('This key lacks the bookings:write scope')]);
      const other = await call('GET', '/kit-bookings', keyKindHeaders(organization, 'restricted', ['products:write']));
      expect(other.json()).toEqual(forbidden('This key lacks the bookings:read scope'));
      expect((await call('POST', '/kit-bookings', keyKindHeaders(organization, 'secret'))).statusCode).toBe(200);
    });

    it('when scopes come with a key that is not restricted, then the assertion is refused as malformed', async () => {
      const headers = assertion(callerAssertion({ organizationId: organization, keyType: 'publishable', scopes: ['bookings:read'] }));
      expect((await call('GET', '/kit-public', headers)).statusCode).toBe(401);
    });
  });

  const ping = (headers: Record<string, string>) => app.inject({ url: '/api/v1/ping/kit-assert', headers });

  it('when the assertion is valid, then the request runs as its organization', async () => {
    const response = await ping(organizationHeaders(organization, 'Europe/Berlin'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { service: 'kit-assert', organization_id: organization } });
  });

  it('when only x-organization-id is sent (no assertion), then 401 in the API error shape', async () => {
    const response = await ping({ 'x-organization-id': organization, 'x-organization-timezone': 'UTC' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('when a valid assertion comes with an x-organization-id of another organization, then the assertion wins', async () => {
    const response = await ping({ ...organizationHeaders(organization), 'x-organization-id': randomUUID() });
    expect(response.json().data.organization_id).toBe(organization);
  });

  it.each([
    ['missing', () => ({})],
    ['empty', () => assertion('')],
    ['not a JWS', () => assertion('not.a.jws')],
    ['expired', () => assertion(callerAssertion({ organizationId: organization }, { expiresInSeconds: -60 }))],
    [
      'tampered (another organization in its claims)',
      () => assertion(callerAssertion({ organizationId: organization }, { tamperedOrganizationId: randomUUID() })),
    ],
    ['signed by an unknown kid', () => assertion(callerAssertion({ organizationId: organization }, { keyId: 'retired-key' }))],
    [
      'signed by a foreign key under the known kid',
      () => assertion(callerAssertion({ organizationId: organization }, { foreignKey: true })),
    ],
    ['issued for another audience', () => assertion(callerAssertion({ organizationId: organization }, { audience: 'someone-else' }))],
    ['issued by someone else', () => assertion(callerAssertion({ organizationId: organization }, { issuer: 'not-the-gateway' }))],
  ])('when the assertion is %s, then 401 UNAUTHORIZED', async (_case, headers) => {
    const response = await ping(headers());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHORIZED);
  });

  it('when a public route gets an anonymous assertion, then it runs without a caller; a keyed route refuses it', async () => {
    const open = await app.inject({ url: '/public', headers: anonymousHeaders() });
    expect([open.statusCode, open.json()]).toEqual([200, { caller: null }]);
    const keyed = await ping(anonymousHeaders());
    expect(keyed.statusCode).toBe(401);
  });

  it('when a public route gets a keyed assertion, then the caller is its organization', async () => {
    const response = await app.inject({ url: '/public', headers: organizationHeaders(organization, 'Asia/Tokyo') });
    expect(response.json().caller).toMatchObject({ organizationId: organization, timezone: 'Asia/Tokyo' });
  });

  it('when a public route gets no assertion, then 401 (the gateway signs even anonymous calls)', async () => {
    expect((await app.inject({ url: '/public' })).statusCode).toBe(401);
  });

  it('when probed without an assertion, then /healthz, /readyz, /metrics and /openapi.json answer', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
  });
});

describe('caller assertions under two kids (a rotation)', () => {
  const next = generateKeyPairSync('ed25519');
  let app: ServiceApp;

  beforeAll(async () => {
    app = await buildService({ name: 'kit-rotate', log: silentLog });
    const run = (JSON.parse(inject('callerAssertionPublicKeys')) as CallerAssertionPublicKeys).keys;
    const keys = {
      keys: [
        { ...(next.publicKey.export({ format: 'jwk' }) as { x: string }), kty: 'OKP' as const, crv: 'Ed25519' as const, kid: 'next' },
        ...run,
      ],
    };
    useCallerAssertionKeys(app, keys);
    await app.ready();
  });
  afterAll(() => app.close());

  /** Signed with the next key (as a gateway given it would sign), under `kid`. */
  const signedByNext = (kid: string, organizationId: string) =>
    createSigner({
      key: next.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      algorithm: 'EdDSA',
      kid,
      iss: 'gateway',
      aud: 'services',
      expiresIn: 60_000,
    })({ organization_id: organizationId, request_id: randomUUID() });
  const ping = (headers: Record<string, string>) => app.inject({ url: '/api/v1/ping/kit-rotate', headers });

  it('when assertions come signed by either key under its own kid, then both run as their organization', async () => {
    const [byRun, byNext] = [randomUUID(), randomUUID()];
    const responses = [await ping(organizationHeaders(byRun)), await ping(assertion(signedByNext('next', byNext)))];
    expect(responses.map((response) => [response.statusCode, response.json().data?.organization_id])).toEqual([
      [200, byRun],
      [200, byNext],
    ]);
  });

  it('when an assertion signed by one key names the other key’s kid, then 401 (the kid picks the key)', async () => {
    const response = await ping(assertion(signedByNext(inject('callerAssertionKeyId'), randomUUID())));
    expect([response.statusCode, response.json()]).toEqual([401, UNAUTHORIZED]);
  });
});

describe('caller assertion keys', () => {
  it('when a service app has no public keys, then it cannot start (naming CALLER_ASSERTION_PUBLIC_KEYS)', async () => {
    const app = await buildService({ name: 'kit-assert', log: silentLog });
    expect(() => useCallerAssertionKeys(app, undefined)).toThrow(ConfigError);
    expect(() => useCallerAssertionKeys(app, undefined)).toThrow(/CALLER_ASSERTION_PUBLIC_KEYS/);
    await app.close();
  });

  it('when a JWKS with two kids is configured (a rotation), then it is read', () => {
    const [old, next] = [generateCallerAssertionKeys('old'), generateCallerAssertionKeys('new')];
    const keys = [...(JSON.parse(old.publicKeys) as { keys: object[] }).keys, ...(JSON.parse(next.publicKeys) as { keys: object[] }).keys];
    const config = loadConfig(baseConfigSchema, { NODE_ENV: 'test', PORT: '1', CALLER_ASSERTION_PUBLIC_KEYS: JSON.stringify({ keys }) });
    expect(config.CALLER_ASSERTION_PUBLIC_KEYS?.keys.map((key) => key.kid)).toEqual(['old', 'new']);
  });

  it.each([
    ['not JSON', 'REPLACE_ME'],
    ['an empty set', '{"keys":[]}'],
    ['a kid twice', () => JSON.stringify({ keys: [jwkOf('a'), jwkOf('a')] })],
    ['a private key', () => JSON.stringify({ keys: [{ ...jwkOf('a'), d: 'x'.repeat(43) }] })],
    ['an RSA key', '{"keys":[{"kty":"RSA","n":"abc","e":"AQAB","kid":"a"}]}'],
  ])('when CALLER_ASSERTION_PUBLIC_KEYS is %s, then the config is refused naming it', (_case, value) => {
    const env = { NODE_ENV: 'test', PORT: '1', CALLER_ASSERTION_PUBLIC_KEYS: typeof value === 'string' ? value : value() };
    expect(() => loadConfig(baseConfigSchema, env)).toThrow(/CALLER_ASSERTION_PUBLIC_KEYS/);
  });
});

function jwkOf(kid: string): object {
  return (JSON.parse(generateCallerAssertionKeys(kid).publicKeys) as { keys: object[] }).keys[0] ?? {};
}
